"""CooMatrix: a sparse matrix (or a batch of them) in COO format, and ``to_coo`` to build one."""
import numpy

from kusari import backend


def scatter_add(xp, target, index, values) -> None:
    """``target[index] += values`` with repeated indices accumulating (NumPy or CuPy)."""
    if xp is numpy:
        numpy.add.at(target, index, values)
    else:
        import cupyx
        cupyx.scatter_add(target, index, values)


def coo_indices(xp, row, col):
    """Batch, row and column index arrays of a ((nb,) nnz) COO pattern and its mask of real entries.

    Padding entries (negative row or column) are pointed at (0, 0) and masked out.
    """
    valid = (row >= 0) & (col >= 0)
    zero = xp.zeros_like(row)
    rows = xp.where(valid, row, zero)
    cols = xp.where(valid, col, zero)
    if row.ndim == 1:
        return None, rows, cols, valid
    batch = xp.broadcast_to(xp.arange(row.shape[0], dtype=row.dtype)[:, None], row.shape)
    return batch, rows, cols, valid


class CooMatrix:
    """A sparse matrix in COO format: ``data[k]`` sits at ``(row[k], col[k])``.

    Parameters
    ----------
    data : array or Variable, (nnz,) or (B, nnz)
        The entries (a batch of B matrices when 2-D); ``self.data`` is a Variable holding them.
    row, col : int arrays of ``data``'s shape
        Their positions; a negative index marks a padding entry (ignored).
    shape : (M, N)
        The dense shape of each matrix.
    order : 'C', 'F', 'other' or None
        Whether ``row`` (C) or ``col`` (F) is sorted; None works it out (see ``get_order``).
    requires_grad : bool
        Whether backprop computes a gradient for ``data``.
    """

    def __init__(self, data, row, col, shape, order=None, requires_grad=False):
        from kusari.variable import Variable
        if data.ndim not in (1, 2):
            raise ValueError(f"CooMatrix: data must be 1- or 2-dimensional, got shape {data.shape}")
        if row.shape != data.shape or col.shape != data.shape:
            raise ValueError(f"CooMatrix: row and col must have data's shape {data.shape}, got "
                             f"row.shape={row.shape}, col.shape={col.shape}")
        if row.dtype.kind not in "iu" or col.dtype.kind not in "iu":
            raise TypeError(f"CooMatrix: row and col must be integer arrays, got {row.dtype} and "
                            f"{col.dtype}")
        shape = tuple(shape)
        if len(shape) != 2 or not (shape[0] > 0 and shape[1] > 0):
            raise ValueError(f"CooMatrix: shape must be two positive ints, got {shape}")
        if order not in ("C", "F", "other", None):
            raise ValueError(f"CooMatrix: order must be 'C', 'F', 'other' or None, got {order!r}")
        # A Variable is kept as is, so gradients reach the graph that produced the entries.
        self.data = data if isinstance(data, Variable) else Variable(data, requires_grad=requires_grad)
        self.row = row
        self.col = col
        self.shape = shape
        self.order = get_order(row, col) if order is None else order

    def to_dense(self):
        """The dense array: (M, N), or (B, M, N) for a batch; repeated positions add up."""
        data = self.data.array
        xp = backend.get_array_module(data)
        batch, rows, cols, valid = coo_indices(xp, self.row, self.col)
        dense = xp.zeros(data.shape[:-1] + self.shape, dtype=data.dtype)
        index = (rows, cols) if batch is None else (batch, rows, cols)
        scatter_add(xp, dense, index, data * valid)
        return dense


def to_coo(x, ldnz=None, requires_grad=False):
    """The CooMatrix of the nonzero entries of ``x``: (M, N), or (B, M, N) for a batch.

    ``ldnz`` sets the length of the entry arrays (at least the largest nonzero count; the rest is
    padding with row = col = -1). Row and column indices are int32, in C order.
    """
    xp = backend.get_array_module(x)
    if x.ndim not in (2, 3):
        raise ValueError(f"to_coo: x must be 2-dimensional (M, N) or 3-dimensional (B, M, N), "
                         f"got shape {x.shape}")
    mats = x if x.ndim == 3 else x[None]
    nonzero = [xp.nonzero(m) for m in mats]
    width = max([len(r) for r, _ in nonzero] + [ldnz or 0])
    data = xp.zeros((len(mats), width), dtype=x.dtype)
    row = xp.full((len(mats), width), -1, dtype=numpy.int32)
    col = xp.full((len(mats), width), -1, dtype=numpy.int32)
    for i, (m, (r, c)) in enumerate(zip(mats, nonzero)):
        n = len(r)
        data[i, :n] = m[r, c]
        row[i, :n] = r
        col[i, :n] = c
    if x.ndim == 2:
        data, row, col = data[0], row[0], col[0]
    return CooMatrix(data, row, col, x.shape[-2:], requires_grad=requires_grad)


def _sorted_by(major, minor) -> bool:
    """Whether the valid entries of one pattern are sorted by ``major``, then by ``minor``."""
    keep = (major >= 0) & (minor >= 0)
    major, minor = major[keep], minor[keep]
    if major.size <= 1:
        return True
    d_major = major[1:] - major[:-1]
    d_minor = minor[1:] - minor[:-1]
    return bool(((d_major > 0) | ((d_major == 0) & (d_minor >= 0))).all())


def get_order(row, col):
    """'C' if the entries are sorted by row (then column), 'F' if by column (then row), else 'other'."""
    if row.shape != col.shape:
        raise ValueError(f"get_order: row.shape={row.shape} and col.shape={col.shape} differ")
    rows, cols = (row, col) if row.ndim == 2 else (row[None], col[None])
    if all(_sorted_by(r, c) for r, c in zip(rows, cols)):
        return "C"
    if all(_sorted_by(c, r) for r, c in zip(rows, cols)):
        return "F"
    return "other"

