"""Sparse adjacency helpers: is a value a CooMatrix, and split a typed COO batch into one matrix per edge type."""
import numpy
from kusari import backend
from kusari.utils import CooMatrix


def _flatten(x) -> numpy.ndarray:
    return backend.to_cpu(getattr(x, "array", x)).ravel()


def sparse_utils_available() -> bool:
    """Always True: kusari has CooMatrix (Chainer Chemistry needed Chainer >= 7 and NumPy >= 1.16)."""
    return True


def is_sparse(x) -> bool:
    """Whether ``x`` is a :class:`kusari.utils.CooMatrix`."""
    return isinstance(x, CooMatrix)


def convert_sparse_with_edge_type(data, row, col, num_nodes: int, edge_type, num_edge_type: int) -> CooMatrix:
    """A batch of typed sparse graphs as a batch of ``B * num_edge_type`` untyped COO matrices.

    Entry ``k`` of graph ``b`` goes to matrix ``b * num_edge_type + edge_type[b, k]``, keeping the
    order of the entries; matrices with fewer entries than the longest are zero-padded (value 0 at
    (0, 0)).

    Parameters
    ----------
    data : array, (B, nnz)
        The entries.
    row, col : int arrays, (B, nnz)
        Their positions.
    num_nodes : int
        The number of nodes of each matrix.
    edge_type : int array, (B, nnz)
        The type of each entry, in [0, num_edge_type).
    num_edge_type : int

    Returns
    -------
    kusari.utils.CooMatrix
        data, row, col of shape (B * num_edge_type, L), L the most entries of one type in one graph;
        row and col int32.
    """
    if data.ndim != 2:
        raise ValueError(f"convert_sparse_with_edge_type: data must be (batch, nnz), got shape {data.shape}")
    for name, x in (("row", row), ("col", col), ("edge_type", edge_type)):
        if x.shape != data.shape:
            raise ValueError(f"convert_sparse_with_edge_type: {name} must have data's shape {data.shape}, "
                             f"got {x.shape}")
    mb, length = data.shape
    xp = backend.get_array_module(data)
    data, row, col, edge_type = (_flatten(x) for x in (data, row, col, edge_type))

    # each entry's target matrix; a stable sort groups them and keeps their order within a group
    target = numpy.repeat(numpy.arange(mb), length) * num_edge_type + edge_type
    order = numpy.argsort(target, kind="stable")
    sorted_target = target[order]
    group_start = numpy.searchsorted(sorted_target, sorted_target, side="left")
    position = numpy.empty_like(order)
    position[order] = numpy.arange(mb * length) - group_start
    new_length = int(position.max()) + 1
    new_mb = mb * num_edge_type

    new_data = numpy.zeros((new_mb, new_length), dtype=data.dtype)
    new_data[target, position] = data
    new_row = numpy.zeros((new_mb, new_length), dtype=numpy.int32)
    new_row[target, position] = row
    new_col = numpy.zeros((new_mb, new_length), dtype=numpy.int32)
    new_col[target, position] = col
    return CooMatrix(xp.asarray(new_data), xp.asarray(new_row), xp.asarray(new_col), (num_nodes, num_nodes))
