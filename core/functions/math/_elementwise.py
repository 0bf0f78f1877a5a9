"""Shared machinery of the elementwise math ops: unary/binary bases, SciPy lookup, axis alignment."""
import numpy

from kusari import backend, utils
from kusari.utils.extras import import_optional
from kusari.function_node import FunctionNode
from kusari.functions.util.non_differentiable import non_differentiable
from kusari.variable import Variable, as_variable
from kusari.utils.type_check import InvalidType


def special(xp, fname: str):
    """``scipy.special`` on the host, ``cupyx.scipy.special`` on the GPU (imported when first used)."""
    if xp is numpy:
        return import_optional("scipy.special", "special", f"kusari.functions.{fname}")
    import cupyx.scipy.special
    return cupyx.scipy.special


def broadcast_shape(fname: str, **arrays) -> tuple:
    """The NumPy broadcast of the arrays' shapes; ``InvalidType`` (a ValueError) naming each argument's
    shape if none."""
    try:
        return numpy.broadcast_shapes(*(a.shape for a in arrays.values()))
    except ValueError:
        desc = ", ".join(f"{k}.shape={tuple(v.shape)}" for k, v in arrays.items())
        raise InvalidType(None, None, f"{fname}: shapes do not broadcast ({desc})") from None


def sum_to_input(g, node):
    """``g`` summed down to the shape of input ``node`` (undoing broadcasting)."""
    if g.shape == node.shape:
        return g
    from kusari.functions.array.sum_to import sum_to
    return sum_to(g, node.shape)


# Chainer labels these nodes with the function's name ('sin', 'arctan2')
_FNAME_LABEL = property(lambda self: self.fname)


class UnaryOp(FunctionNode):
    """``y = f(x)`` on one float array.

    Subclasses set ``fname`` and ``retain`` (a subset of ``("x", "y")``: what ``grad`` needs) and
    implement ``compute(xp, x) -> array`` and ``grad(x, y, gy) -> Variable`` (built from
    differentiable functions; ``x`` / ``y`` are None unless retained).
    """

    fname = ""
    retain = ()
    label = _FNAME_LABEL

    def forward(self, inputs):
        x, = inputs
        utils.check_float(self.fname, "x", x)
        if "x" in self.retain:
            self.retain_inputs((0,))
        if "y" in self.retain:
            self.retain_outputs((0,))
        return utils.force_array(self.compute(backend.get_array_module(x), x), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs() or (None,)
        y, = self.get_retained_outputs() or (None,)
        return self.grad(x, y, grad_outputs[0]),


class SpecialUnaryOp(UnaryOp):
    """A UnaryOp whose forward is the SciPy / CuPy special function named ``scipy_name``."""

    scipy_name = ""

    def compute(self, xp, x):
        return getattr(special(xp, self.fname), self.scipy_name)(x)


class BinaryOp(FunctionNode):
    """``y = f(a, b)`` on two float arrays of one dtype, broadcast with NumPy rules.

    Subclasses set ``fname`` and ``argnames`` and implement ``compute(xp, a, b) -> array`` and
    ``grad(i, a, b, gy) -> Variable``, the gradient for input ``i`` at the broadcast shape.
    """

    fname = ""
    argnames = ("x1", "x2")
    label = _FNAME_LABEL

    def forward(self, inputs):
        a, b = inputs
        n1, n2 = self.argnames
        utils.check_float(self.fname, n1, a)
        utils.check_float(self.fname, n2, b)
        utils.check_same_dtype(self.fname, **{n1: a, n2: b})
        broadcast_shape(self.fname, **{n1: a, n2: b})
        self.retain_inputs((0, 1))
        return utils.force_array(self.compute(backend.get_array_module(a), a, b), a.dtype),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        gy = grad_outputs[0]
        return tuple(sum_to_input(self.grad(i, a, b, gy), self.inputs[i]) for i in indexes)


def elementwise_without_gradient(fname: str, xp_name: str, x):
    """``xp.<xp_name>(x)`` as a Variable with no gradient path (for ceil, floor, fix, sign)."""
    array = x._data if isinstance(x, Variable) else x
    if not (isinstance(array, numpy.ndarray) or backend.is_gpu_array(array)):
        raise TypeError(f"{fname}: x must be a Variable or an array, got {type(x).__name__}")
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{fname}: x must be a real numeric array, got dtype {array.dtype} "
                        f"(shape={array.shape})")
    def compute(a):
        return utils.force_array(getattr(backend.get_array_module(a), xp_name)(a), a.dtype),
    return non_differentiable(fname, compute, array)[0]


def align_to(fname: str, x, y, axis):
    """``y`` reshaped and broadcast to ``x.shape``, its axes lined up with ``x``'s from ``axis`` on.

    With ``x.shape == (N, C, H, W)``, ``y.shape == (C, H)`` and ``axis == 1``, ``y`` is viewed as
    ``(1, C, H, 1)`` and broadcast (Caffe's convention, used by ``bias`` and ``scale``).
    """
    utils.check_float(fname, "x", x)
    utils.check_float(fname, "y", y)
    utils.check_same_dtype(fname, x=x, y=y)
    x_shape, y_shape = tuple(x.shape), tuple(y.shape)
    if not isinstance(axis, (int, numpy.integer)) or not 0 <= axis <= len(x_shape) - len(y_shape):
        raise ValueError(f"{fname}: axis={axis} is out of range for x.shape={x_shape} and "
                         f"y.shape={y_shape} (need 0 <= axis <= x.ndim - y.ndim)")
    if x_shape[axis:axis + len(y_shape)] != y_shape:
        raise ValueError(f"{fname}: y.shape={y_shape} does not match "
                         f"x.shape[{axis}:{axis + len(y_shape)}]={x_shape[axis:axis + len(y_shape)]} "
                         f"(x.shape={x_shape}, axis={axis})")
    from kusari.functions.array.broadcast import broadcast_to
    from kusari.functions.array.reshape import reshape
    lead, trail = axis, len(x_shape) - axis - len(y_shape)
    y = reshape(y, (1,) * lead + y_shape + (1,) * trail)
    return as_variable(x), broadcast_to(y, x_shape)
