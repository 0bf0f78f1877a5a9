"""cumsum: cumulative sum along an axis."""
from kusari import backend, utils
from kusari.function_node import FunctionNode


def check_axis(fname, axis):
    """Raise TypeError unless ``axis`` is an int or None (cumulative ops take one axis)."""
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)):
        raise TypeError(f"{fname}: axis must be an int or None, got {axis!r}")


def normalize_cum_axis(fname, axis, x):
    """``axis`` as a non-negative int, validated against float array ``x``."""
    utils.check_float(fname, "x", x)
    if x.ndim == 0:
        raise ValueError(f"{fname}: x is 0-dimensional; pass axis=None or give x an axis")
    return utils.normalize_axis(fname, axis, x.ndim)[0]


def reverse(x, axis):
    """``x`` reversed along ``axis`` (differentiable)."""
    from kusari.functions.array.get_item import get_item
    return get_item(x, (slice(None),) * axis + (slice(None, None, -1),))


class Cumsum(FunctionNode):
    def __init__(self, axis):
        self._axis = axis

    def forward(self, inputs):
        x = inputs[0]
        self._axis = normalize_cum_axis("cumsum", self._axis, x)
        return backend.get_array_module(x).cumsum(x, axis=self._axis),

    def backward(self, indexes, grad_outputs):
        # Each x_i reaches every y_j with j >= i: the gradient is a reversed cumulative sum.
        return reverse(cumsum(reverse(grad_outputs[0], self._axis), self._axis), self._axis),


def cumsum(x, axis=None):
    """Cumulative sum of ``x`` along ``axis`` (an int); with ``axis=None``, of ``x`` flattened.

    Returns the shape of ``x`` (1-D of ``x.size`` when ``axis`` is None).
    """
    check_axis("cumsum", axis)
    if axis is None:
        from kusari.functions.array.reshape import reshape
        x, axis = reshape(x, (-1,)), 0
    return Cumsum(axis).apply((x,))[0]
