"""where: choose elements from two arrays by a boolean condition."""
import numbers

import numpy

from kusari import backend
from kusari.function_node import FunctionNode


class Where(FunctionNode):
    def forward(self, inputs):
        condition, x, y = inputs
        if condition.dtype != numpy.bool_:
            raise TypeError(f"where: condition must be a boolean array, got dtype {condition.dtype} "
                            f"(shape={condition.shape})")
        if x.dtype != y.dtype:
            raise TypeError(f"where: x.dtype={x.dtype} and y.dtype={y.dtype} differ; "
                            "cast explicitly, kusari never upcasts")
        try:
            numpy.broadcast_shapes(condition.shape, x.shape, y.shape)
        except ValueError:
            raise ValueError(f"where: shapes do not broadcast (condition.shape={condition.shape}, "
                             f"x.shape={x.shape}, y.shape={y.shape})") from None
        self.retain_inputs((0,))
        return backend.get_array_module(*inputs).where(condition, x, y),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.sum_to import sum_to
        condition, = self.get_retained_inputs()
        gy = grad_outputs[0]
        zero = backend.get_array_module(gy.array).zeros((), gy.dtype)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(None)
                continue
            pair = (gy, zero) if i == 1 else (zero, gy)
            g = Where().apply((condition,) + pair)[0]
            ret.append(sum_to(g, self.inputs[i].shape))
        return tuple(ret)


def _is_scalar(v):
    return isinstance(v, (numbers.Number, numpy.generic))


def _as_operand(v, other):
    if _is_scalar(v):
        xp = backend.get_array_module(other)
        return xp.asarray(v, dtype=other.dtype)
    return v


def where(condition, x, y):
    """``x`` where ``condition`` is True, else ``y``, elementwise with broadcasting.

    ``condition``: boolean array; ``x``, ``y``: arrays of one dtype (a Python scalar takes the
    other operand's dtype). Returns a Variable of the broadcast shape; no gradient flows to
    ``condition``.
    """
    if _is_scalar(x) and _is_scalar(y):
        raise TypeError("where: x and y cannot both be scalars; make one an array of the wanted dtype")
    x = _as_operand(x, y)
    y = _as_operand(y, x)
    return Where().apply((condition, x, y))[0]
