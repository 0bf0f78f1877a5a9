"""Checking a model's graph inputs, so that a wrong preprocessor's output fails clearly."""
import numpy

# which preprocessors produce each adjacency layout, to name them in errors
_LAYOUTS = {
    3: "(minibatch, N, N), a single adjacency as the nfp, gin, rsgcn and schnet preprocessors give",
    4: "(minibatch, n_edge_types, N, N), an edge-typed adjacency as the ggnn and relgcn "
       "preprocessors give",
}


def check_graph_inputs(model: str, atom_array, adj, n_edge_types=None) -> None:
    """Raise ValueError unless atom_array and adj have the layout ``model`` expects.

    Parameters
    ----------
    model : str
        Model name for the message (e.g. 'GGNN').
    atom_array : array or Variable
        (minibatch, N) atom IDs or (minibatch, N, ch) features.
    adj : array or Variable
        (minibatch, n_edge_types, N, N) when ``n_edge_types`` is given, else (minibatch, N, N).
    n_edge_types : int or None
    """
    if atom_array.ndim not in (2, 3):
        raise ValueError(f"{model}: atom_array must be (minibatch, N) atom IDs or "
                         f"(minibatch, N, ch) features, got shape {tuple(atom_array.shape)}")
    mb, n = atom_array.shape[:2]
    expected = (mb, n, n) if n_edge_types is None else (mb, n_edge_types, n, n)
    given = tuple(adj.shape)
    if given != expected:
        given_layout = _LAYOUTS.get(len(given), "a layout no graph preprocessor gives")
        raise ValueError(f"{model}: adj must have shape {expected}, {_LAYOUTS[len(expected)]}; "
                         f"got {given}, {given_layout} (atom_array.shape={tuple(atom_array.shape)})")


def is_atom_ids(model: str, atom_array) -> bool:
    """True for int32 atom IDs (to embed), False for float features (used as they are).

    Raises TypeError for other dtypes (int64 IDs would otherwise pass as features).
    """
    dtype = numpy.dtype(atom_array.dtype)
    if dtype == numpy.int32:
        return True
    if dtype.kind == "f":
        return False
    raise TypeError(f"{model}: atom_array must be int32 atom IDs or float features, "
                    f"got dtype {dtype}")
