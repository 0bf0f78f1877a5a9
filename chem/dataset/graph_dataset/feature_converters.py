"""Batch methods of graph datasets: how one attribute of a list of graphs becomes one batched array.

Each takes the attribute ``name``, the ``batch`` (list of graph data) and a ``device`` (anything
:func:`kusari.dataset.to_device` accepts; None leaves the arrays on the host).
"""
import numpy

from kusari.dataset import concat_examples, to_device


def batch_with_padding(name: str, batch: list, device=None, pad=0):
    """Stack the attribute along a new leading axis, padding smaller arrays with ``pad``.

    Returns
    -------
    array
        ``(B,) + max_shape``.
    """
    return to_device(device, concat_examples([getattr(data, name) for data in batch], padding=pad))


def batch_without_padding(name: str, batch: list, device=None):
    """Stack the attribute (all of one shape, or numbers) along a new leading axis.

    Returns
    -------
    array
        ``(B,) + shape``.
    """
    return to_device(device, concat_examples([getattr(data, name) for data in batch]))


def concat_with_padding(name: str, batch: list, device=None, pad=0):
    """Pad the attribute to the largest graph and join the graphs along axis 0.

    Returns
    -------
    array
        ``(B * max_n,) + shape[1:]``: graph ``b`` fills rows ``b * max_n`` onwards.
    """
    feat = batch_with_padding(name, batch, device=device, pad=pad)
    return feat.reshape((feat.shape[0] * feat.shape[1],) + feat.shape[2:])


def concat(name: str, batch: list, device=None, axis: int = 0):
    """Join the attribute of all graphs along ``axis`` (no new axis).

    Returns
    -------
    array
    """
    return to_device(device, numpy.concatenate([getattr(data, name) for data in batch], axis=axis))


def _shifted(name: str, batch: list, shifts, device, shift_axis: int):
    feat = numpy.concatenate([getattr(data, name) + shift for data, shift in zip(batch, shifts)],
                             axis=shift_axis)
    return to_device(device, feat)


def shift_concat(name: str, batch: list, device=None, shift_attr: str = "x", shift_axis: int = 1):
    """Join node indices (e.g. ``edge_index``) of all graphs into one graph's numbering.

    Graph ``b``'s indices are shifted by the number of nodes (rows of ``shift_attr``) of the
    graphs before it.

    Returns
    -------
    array
        e.g. ``(2, sum E_b)`` for ``edge_index``.
    """
    sizes = [getattr(data, shift_attr).shape[0] for data in batch]
    return _shifted(name, batch, numpy.cumsum([0] + sizes[:-1]), device, shift_axis)


def shift_concat_with_padding(name: str, batch: list, device=None, shift_attr: str = "x",
                              shift_axis: int = 1):
    """:func:`shift_concat` with every graph taking ``max_n`` slots (as in :func:`concat_with_padding`).

    Returns
    -------
    array
    """
    max_n = max(getattr(data, shift_attr).shape[0] for data in batch)
    return _shifted(name, batch, numpy.arange(len(batch)) * max_n, device, shift_axis)
