"""Pad batches of node features and adjacency matrices to a larger number of nodes."""
from collections.abc import Iterable
from logging import getLogger

from kusari import backend


def _to_list(a) -> list:
    return list(a) if isinstance(a, Iterable) else [a]


def extend_node(node, out_size: int, axis=-1, value=0):
    """``node`` padded with ``value`` to ``out_size`` along ``axis``.

    Parameters
    ----------
    node : array or sequence of arrays, (B, ...)
        The batch (its first axis) of node arrays.
    out_size : int
        The size of ``axis`` after padding (not below the current one).
    axis : int or list of int
        The axes (of the batch array) to pad; the last by default.
    value : scalar
        The fill value.

    Returns
    -------
    array, (B, ...)
        ``node``'s dtype, the ``axis`` sizes set to ``out_size``.
    """
    return extend_arrays_to_size(node, out_size=out_size, axis=axis, value=value)


def extend_adj(adj, out_size: int, axis=None, value=0):
    """``adj`` padded with ``value`` to ``out_size`` along ``axis`` (the last two axes by default).

    Parameters
    ----------
    adj : array or sequence of arrays, (B, ..., N, N)
        The batch of adjacency matrices.
    out_size : int
        The number of nodes after padding.
    axis : list of int or None
        The axes to pad; None is ``[-1, -2]``.
    value : scalar
        The fill value.

    Returns
    -------
    array, (B, ..., out_size, out_size)
    """
    axis = [-1, -2] if axis is None else axis
    return extend_arrays_to_size(adj, out_size=out_size, axis=axis, value=value)


def extend_arrays_to_size(arrays, out_size: int, axis=-1, value=0):
    """``arrays`` (a batch) padded with ``value`` so that each axis of ``axis`` has ``out_size``.

    Parameters
    ----------
    arrays : array or sequence of equally shaped arrays, (B, ...)
    out_size : int
    axis : int or list of int
        Axes of the batch array; 0 (the batch axis) is allowed, with a warning.
    value : scalar

    Returns
    -------
    array, (B, ...)
    """
    out_shape = [len(arrays)] + list(arrays[0].shape)
    for ax in _to_list(axis):
        if ax == 0:
            getLogger(__name__).warning("extend_arrays_to_size: axis 0 is the batch axis")
        if out_shape[ax] > out_size:
            raise ValueError(f"extend_arrays_to_size: axis {ax} has size {out_shape[ax]}, above out_size={out_size} "
                             f"(batch shape {tuple(out_shape)})")
        out_shape[ax] = out_size
    return extend_arrays_to_shape(arrays, out_shape, value=value)


def extend_arrays_to_shape(arrays, out_shape, value=0):
    """``arrays`` (a batch) copied into the corner of an array of ``out_shape`` filled with ``value``.

    Parameters
    ----------
    arrays : array or sequence of arrays, (B, ...)
    out_shape : sequence of int, (B, ...)
        At least each array's shape along every axis.
    value : scalar

    Returns
    -------
    array of ``out_shape``, the dtype of ``arrays[0]``
    """
    first = arrays[0]
    xp = backend.get_array_module(first)
    result = xp.full(tuple(out_shape), value, dtype=first.dtype)
    for i, src in enumerate(arrays):
        result[(i,) + tuple(slice(dim) for dim in src.shape)] = src
    return result
