"""tensordot: sum of products over chosen axes of two arrays (``numpy.tensordot``)."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode


def _as_axes(fname, name, axes, ndim):
    axes = (axes,) if isinstance(axes, (int, numpy.integer)) else tuple(axes)
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f"{fname}: axis {a} of {name} is out of bounds for {ndim} dimensions")
        out.append(int(a) % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"{fname}: repeated axis in {name}'s axes {axes}")
    return tuple(out)


def _normalize(axes, a, b):
    """``axes`` (an int N or a pair of axis lists) as two tuples of contracted axes of a and b."""
    if isinstance(axes, (int, numpy.integer)):
        if not 0 <= axes <= min(a.ndim, b.ndim):
            raise ValueError(f"tensordot: axes={axes} must lie in [0, {min(a.ndim, b.ndim)}] "
                             f"(a.shape={a.shape}, b.shape={b.shape})")
        return tuple(range(a.ndim - axes, a.ndim)), tuple(range(axes))
    if len(axes) != 2:
        raise ValueError(f"tensordot: axes must be an int or a pair of axis lists, got {axes!r}")
    a_axes = _as_axes("tensordot", "a", axes[0], a.ndim)
    b_axes = _as_axes("tensordot", "b", axes[1], b.ndim)
    if len(a_axes) != len(b_axes):
        raise ValueError(f"tensordot: a and b need as many contracted axes, got {axes!r}")
    return a_axes, b_axes


class TensorDot(FunctionNode):
    def __init__(self, axes):
        self._axes = axes

    def forward(self, inputs):
        a, b = inputs
        utils.check_float("tensordot", "a", a)
        utils.check_float("tensordot", "b", b)
        utils.check_same_dtype("tensordot", a=a, b=b)
        self._a_axes, self._b_axes = _normalize(self._axes, a, b)
        for i, j in zip(self._a_axes, self._b_axes):
            if a.shape[i] != b.shape[j]:
                raise ValueError(f"tensordot: a.shape[{i}]={a.shape[i]} does not match "
                                 f"b.shape[{j}]={b.shape[j]} (a.shape={a.shape}, "
                                 f"b.shape={b.shape}, axes={self._axes!r})")
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(a)
        return utils.force_array(xp.tensordot(a, b, axes=(self._a_axes, self._b_axes))),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.transpose import transpose
        a, b = self.get_retained_inputs()
        gy = grad_outputs[0]
        a_axes, b_axes = self._a_axes, self._b_axes
        a_free = [i for i in range(a.ndim) if i not in a_axes]
        b_free = [i for i in range(b.ndim) if i not in b_axes]
        n_a = len(a_free)
        ret = []
        for i in indexes:
            if i == 0:
                # gy (a_free, b_free) . b over b_free -> axes a_free, then b's contracted axes in
                # increasing order, each standing for its partner in a.
                g = TensorDot((tuple(range(n_a, gy.ndim)), tuple(b_free))).apply((gy, b))[0]
                order = a_free + [a_axes[k] for k in numpy.argsort(b_axes)]
            else:
                g = TensorDot((tuple(a_free), tuple(range(n_a)))).apply((a, gy))[0]
                order = [b_axes[k] for k in numpy.argsort(a_axes)] + b_free
            ret.append(transpose(g, tuple(int(k) for k in numpy.argsort(order))))
        return tuple(ret)


def tensordot(a, b, axes=2):
    """Sum of products of ``a`` and ``b`` over contracted axes, as ``numpy.tensordot``.

    ``axes``: an int N (the last N axes of ``a`` with the first N of ``b``) or a pair of axis
    lists. Returns the free axes of ``a`` followed by the free axes of ``b``. Operands of two float
    dtypes are multiplied in their promoted dtype (as ``matmul``).
    """
    a, b = utils.promote_floats(a, b)
    return TensorDot(axes).apply((a, b))[0]
