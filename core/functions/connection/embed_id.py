"""embed_id: look up rows of an embedding matrix by integer ids."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode


def _lookup(x, W, ignore_label):
    xp = backend.get_array_module(W)
    if ignore_label is None:
        return W[x]
    mask = x == ignore_label
    y = W[xp.where(mask, 0, x)]
    y[mask] = 0
    return y


class EmbedIDFunction(FunctionNode):
    def __init__(self, ignore_label):
        self.ignore_label = ignore_label

    def forward(self, inputs):
        x, W = inputs
        if x.dtype.kind not in "iu":
            raise TypeError(f"embed_id: x must be an integer array of ids, got dtype {x.dtype} "
                            f"(x.shape={tuple(x.shape)})")
        utils.check_float("embed_id", "W", W)
        utils.check_ndim("embed_id", "W", W, 2)
        if backend.get_array_module(x) is numpy:
            valid = x if self.ignore_label is None else x[x != self.ignore_label]
            if valid.size and (valid.min() < 0 or valid.max() >= len(W)):
                raise ValueError(f"embed_id: ids must satisfy 0 <= x < len(W)={len(W)} (except "
                                 f"ignore_label={self.ignore_label}), got values in "
                                 f"[{valid.min()}, {valid.max()}]")
        self.retain_inputs((0,))
        return _lookup(x, W, self.ignore_label),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        if 1 not in indexes:
            return (None,) * len(indexes)
        gw = EmbedIDGrad(self.inputs[1].shape, self.ignore_label).apply((x, grad_outputs[0]))[0]
        return tuple(gw if i == 1 else None for i in indexes)


class EmbedIDGrad(FunctionNode):
    """Scatter-add of the output gradients into the rows of W; its own gradient is embed_id again."""

    def __init__(self, w_shape, ignore_label):
        self.w_shape = w_shape
        self.ignore_label = ignore_label

    def forward(self, inputs):
        x, gy = inputs
        xp = backend.get_array_module(gy)
        self.retain_inputs((0,))
        if self.ignore_label is not None:
            keep = x != self.ignore_label
            x, gy = x[keep], gy[keep]
        gw = xp.zeros(self.w_shape, dtype=gy.dtype)
        if xp is numpy:
            numpy.add.at(gw, x, gy)
        else:
            import cupyx
            cupyx.scatter_add(gw, x, gy)
        return gw,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        ggy = embed_id(x, grad_outputs[0], self.ignore_label)
        return tuple(ggy if i == 1 else None for i in indexes)


def embed_id(x, W, ignore_label=None):
    """Rows of ``W`` selected by the ids in ``x`` (an embedding lookup).

    Parameters
    ----------
    x : Variable or array of integers, any shape S
    W : Variable or array of shape (V, D)
    ignore_label : int, optional
        Ids equal to it give zero vectors (and no gradient).

    Returns
    -------
    Variable of shape S + (D,).
    """
    return EmbedIDFunction(ignore_label).apply((x, W))[0]
