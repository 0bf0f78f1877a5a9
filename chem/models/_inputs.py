"""Checking a model's graph inputs, so that a wrong preprocessor's output fails clearly."""
import numpy

from kusari import backend

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


def real_atoms(model: str, atom_array, is_real_node=None) -> tuple:
    """Atom IDs with ``concat_mols``' padding (-1) made 0, and the mask of a molecule's own atoms.

    ``concat_mols`` pads integer arrays with -1, so padding atoms are known without a mask; a
    model that embeds ID 0 for them and leaves them out of every sum (messages, readouts) gives
    each molecule the output it has alone. Float features carry no such mark: pass
    ``is_real_node`` with them.

    Parameters
    ----------
    model : str
        Model name for the messages.
    atom_array : array or Variable, shape (minibatch, N) int32, or (minibatch, N, ch) float
    is_real_node : array, Variable or None, shape (minibatch, N)
        1 for a real atom, 0 for padding; None derives it from the -1 IDs.

    Returns
    -------
    (atom_array, is_real_node)
        IDs >= 0 (float features unchanged), and the mask: as given, float32 when derived, None
        when there is no padding (every atom is real).
    """
    array = atom_array.array if hasattr(atom_array, "array") else atom_array
    if numpy.dtype(array.dtype).kind not in "iu":
        return atom_array, is_real_node
    padding = array < 0
    if not padding.any():
        return atom_array, is_real_node
    misplaced = (padding[:, :-1] & ~padding[:, 1:]).any(axis=1)
    if misplaced.any():
        rows = numpy.flatnonzero(backend.to_cpu(misplaced)).tolist()
        raise ValueError(f"{model}: atom_array has a negative ID before a real atom in rows {rows}; "
                         f"IDs must be >= 0, and -1 only marks concat_mols' padding after a "
                         f"molecule's atoms (shape {tuple(array.shape)})")
    xp = backend.get_array_module(array)
    if is_real_node is None:
        is_real_node = (~padding).astype(numpy.float32)
    else:
        mask = is_real_node.array if hasattr(is_real_node, "array") else is_real_node
        if tuple(mask.shape) != tuple(array.shape) or bool(((mask != 0) & padding).any()):
            raise ValueError(f"{model}: is_real_node (shape {tuple(mask.shape)}) marks as real an atom "
                             f"that concat_mols padded (ID -1); atom_array.shape={tuple(array.shape)}")
    return xp.where(padding, 0, array).astype(array.dtype, copy=False), is_real_node
