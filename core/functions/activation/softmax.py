"""softmax: exp(x) normalized to sum to one along an axis."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode


def single_axis(fname, axis, x):
    """``axis`` (an int) validated against ``x`` and made non-negative."""
    if isinstance(axis, bool) or not isinstance(axis, (int, numpy.integer)):
        raise TypeError(f"{fname}: axis must be an int, got {type(axis).__name__}")
    if x.ndim == 0:
        raise ValueError(f"{fname}: x must have at least one dimension, got a 0-d array")
    return utils.normalize_axis(fname, axis, x.ndim)[0]


def shifted_exp(xp, x, axis):
    """Arrays ``z = x - max(x)``, ``exp(z)`` and its sum along ``axis`` (kept as size 1).

    The overflow-free start shared by softmax, log_softmax and the losses built on them.
    """
    if xp is numpy:     # the reductions ndarray.max/sum call, without their Python-level wrappers
        z = x - numpy.maximum.reduce(x, axis=axis, keepdims=True)
        e = numpy.exp(z)
        return z, e, numpy.add.reduce(e, axis=axis, keepdims=True)
    z = x - x.max(axis=axis, keepdims=True)
    e = xp.exp(z)
    return z, e, e.sum(axis=axis, keepdims=True)


class Softmax(FunctionNode):
    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("softmax", "x", x)
        self.axis = single_axis("softmax", self.axis, x)
        xp = backend.get_array_module(x)
        _, e, total = shifted_exp(xp, x, self.axis)
        e /= total
        self.retain_outputs((0,))
        return e,

    def backward(self, indexes, grad_outputs):
        from kusari.functions.math.sum import sum as _sum
        y, = self.get_retained_outputs()
        ygy = y * grad_outputs[0]
        return ygy - y * _sum(ygy, axis=self.axis, keepdims=True),


def softmax(x, axis=1):
    """Softmax ``exp(x) / sum(exp(x), axis)`` along ``axis``.

    x: float array with at least one dimension; returns a Variable of the same shape whose
    entries along ``axis`` are positive and sum to one.
    """
    return Softmax(axis).apply((x,))[0]
