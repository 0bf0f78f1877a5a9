"""Padded molecule batches as atom and directed-edge index arrays, for the models that work on each
molecule's own atoms and bonds (DMPNN, AttentiveFP), and the per-segment sums and softmax they use."""
import numpy

from kusari import backend
from kusari import functions as F
from kusari.variable import Variable


def _array(x):
    return x.array if isinstance(x, Variable) else x


def check_pair_inputs(model: str, atom_features, bond_features) -> None:
    """ValueError/TypeError unless the inputs are ChempropPreprocessor's batched arrays."""
    x, e = atom_features, bond_features
    if x.ndim != 3 or e.ndim != 4 or e.shape[0] != x.shape[0] or e.shape[2:] != (x.shape[1],) * 2:
        raise ValueError(f"{model}: atom_features must be (minibatch, N, atom_fdim) and bond_features "
                         f"(minibatch, bond_fdim, N, N), as ChempropPreprocessor gives them; got "
                         f"{tuple(x.shape)} and {tuple(e.shape)}")
    if numpy.dtype(x.dtype).kind != "f":
        raise TypeError(f"{model}: atom_features must be float features (ChempropPreprocessor's), "
                        f"got dtype {x.dtype}")


def molecule_graph(model: str, atom_features, bond_features, is_real_node=None) -> tuple:
    """The batch's atoms and directed edges as index arrays (chemprop's BatchMolGraph).

    Parameters
    ----------
    model : str
        Model name for the messages.
    atom_features : array or Variable, shape (minibatch, N, atom_fdim)
        All-zero rows are padding unless ``is_real_node`` says otherwise.
    bond_features : array or Variable, shape (minibatch, bond_fdim, N, N)
        Nonzero at (i, j) and (j, i) for each bond.
    is_real_node : array, Variable or None, shape (minibatch, N)

    Returns
    -------
    tuple
        ``atom_rows`` (n_atoms,) rows of the (minibatch * N) flattened atoms, ``molecule``
        (n_atoms,) each atom's molecule, ``src``/``dst`` (n_edges,) atom indices of each
        directed edge, ``pairs`` the (b, i, j) of each edge, ``rev`` (n_edges,) the reverse edge.
    """
    x, e = _array(atom_features), _array(bond_features)
    xp = backend.get_array_module(x)
    mb, n = x.shape[:2]
    real = (xp.any(x != 0, axis=2) if is_real_node is None else _array(is_real_node) != 0)
    atom_rows = xp.flatnonzero(real.reshape(-1))
    compact = xp.full(mb * n, -1, dtype=numpy.int64)
    compact[atom_rows] = xp.arange(len(atom_rows))
    b, i, j = xp.nonzero(xp.any(e != 0, axis=1))
    keys = (b * n + i) * n + j                 # ascending (nonzero's C order)
    reverse_keys = (b * n + j) * n + i
    rev = xp.searchsorted(keys, reverse_keys)
    src, dst = compact[b * n + i], compact[b * n + j]
    if len(keys) and ((rev >= len(keys)) | (keys[xp.minimum(rev, len(keys) - 1)] != reverse_keys)).any():
        raise ValueError(f"{model}: bond_features must be symmetric (a bond's features at (i, j) and "
                         f"(j, i)), as ChempropPreprocessor gives them")
    if len(src) and ((src < 0) | (dst < 0)).any():
        raise ValueError(f"{model}: a bond joins a padding atom (all-zero atom features, or 0 in "
                         f"is_real_node)")
    return atom_rows, atom_rows // n, src, dst, (b, i, j), rev


def segment_sum(values, segment, n_segments: int):
    """Rows of ``values`` (n, ...) summed by ``segment`` (n,) ints into (n_segments, ...)."""
    xp = backend.get_array_module(segment)
    return F.scatter_add(xp.zeros((n_segments,) + values.shape[1:], dtype=values.dtype), segment, values)


def segment_softmax(scores, segment, n_segments: int):
    """Softmax of ``scores`` (n,) within each segment (``segment`` (n,) ints)."""
    xp = backend.get_array_module(segment)
    shift = xp.full(n_segments, -numpy.inf, dtype=scores.dtype)
    xp.maximum.at(shift, segment, _array(scores))   # a constant per segment: no gradient needed
    e = F.exp(scores - shift[segment])
    return e / F.get_item(segment_sum(e, segment, n_segments), segment)
