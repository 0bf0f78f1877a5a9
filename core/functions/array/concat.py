"""concat: join arrays along an existing axis."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.utils.type_check import InvalidType


def check_joinable(fname: str, xs, axis):
    """Raise ``InvalidType`` (a ValueError and a TypeError) unless ``xs`` share dtype, ndim and every
    dimension except ``axis`` (None: all)."""
    if not xs:
        raise ValueError(f"{fname}: needs at least one array, got an empty sequence")
    x0 = xs[0]
    for i, x in enumerate(xs[1:], 1):
        if x.dtype != x0.dtype:
            raise InvalidType(None, None, f"{fname}: xs[{i}].dtype={x.dtype} differs from xs[0].dtype="
                                          f"{x0.dtype}; cast explicitly, kusari never upcasts")
        if x.ndim != x0.ndim:
            raise InvalidType(None, None, f"{fname}: xs[{i}].shape={x.shape} has {x.ndim} dimensions but "
                                          f"xs[0].shape={x0.shape} has {x0.ndim}")
        if any(a != b for d, (a, b) in enumerate(zip(x.shape, x0.shape)) if d != axis):
            where = "" if axis is None else f" outside axis {axis}"
            raise InvalidType(None, None, f"{fname}: xs[{i}].shape={x.shape} does not match "
                                          f"xs[0].shape={x0.shape}{where}")


class Concat(FunctionNode):
    def __init__(self, axis):
        self._axis = axis

    def forward(self, inputs):
        if inputs[0].ndim == 0:
            raise ValueError("concat: cannot join 0-dimensional arrays (xs[0].shape=())")
        axis = utils.normalize_axis("concat", self._axis, inputs[0].ndim)[0]
        check_joinable("concat", inputs, axis)
        self._axis = axis
        self._sizes = [x.shape[axis] for x in inputs]
        return backend.get_array_module(*inputs).concatenate(inputs, axis=axis),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.split_axis import split_axis
        gxs = split_axis(grad_outputs[0], self._offsets(), self._axis, force_tuple=True)
        return tuple(gxs[i] for i in indexes)

    def _offsets(self) -> list:
        """Where the inputs start along the axis, the first excepted: the split points of the gradient."""
        return numpy.cumsum(self._sizes[:-1]).tolist()


def concat(xs, axis=1):
    """Join the arrays ``xs`` along ``axis``.

    ``xs``: sequence of arrays with equal shapes except along ``axis``, e.g. ``(n, c_i, h, w)``.
    Returns a Variable of shape ``(n, sum(c_i), h, w)`` for ``axis=1``.
    """
    xs = tuple(xs)
    if not xs:
        raise ValueError("concat: needs at least one array, got an empty sequence")
    return Concat(axis).apply(xs)[0]
