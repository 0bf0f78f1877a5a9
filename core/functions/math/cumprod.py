"""cumprod: cumulative product along an axis, with a gradient that is exact at zeros."""
from kusari import backend
from kusari.function_node import FunctionNode
from kusari.functions.math.cumsum import check_axis, normalize_cum_axis


def _along(axis, index):
    return (slice(None),) * axis + (index,)


class Shift(FunctionNode):
    """``y[i] = x[i - offset]`` along ``axis``; positions with no source hold ``fill``."""

    def __init__(self, axis, offset, fill=0):
        self._axis = axis
        self._offset = offset
        self._fill = fill

    def forward(self, inputs):
        x = inputs[0]
        xp = backend.get_array_module(x)
        y = xp.full_like(x, self._fill)
        k, n = self._offset, x.shape[self._axis]
        if abs(k) < n:
            if k >= 0:
                y[_along(self._axis, slice(k, None))] = x[_along(self._axis, slice(0, n - k))]
            else:
                y[_along(self._axis, slice(0, n + k))] = x[_along(self._axis, slice(-k, None))]
        return y,

    def backward(self, indexes, grad_outputs):
        return Shift(self._axis, -self._offset).apply(grad_outputs)


class LinearScan(FunctionNode):
    """The first-order recurrence ``z[i] = a[i] * z[i-1] + b[i]`` along ``axis`` (``z[i+1]`` if reverse).

    ``a`` and ``b`` share one shape; the first ``a`` in scan order is unused.
    """

    def __init__(self, axis, reverse):
        self._axis = axis
        self._reverse = reverse

    def forward(self, inputs):
        a, b = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(b)
        z = xp.empty_like(b)
        n = b.shape[self._axis]
        carry = None
        for i in (range(n - 1, -1, -1) if self._reverse else range(n)):
            idx = _along(self._axis, i)
            carry = b[idx] if carry is None else a[idx] * carry + b[idx]
            z[idx] = carry
        return z,

    def backward(self, indexes, grad_outputs):
        a, = self.get_retained_inputs()
        z, = self.get_retained_outputs()
        gz = grad_outputs[0]
        step = -1 if self._reverse else 1
        # The adjoint runs the recurrence the other way: w[i] = gz[i] + a[i+step] * w[i+step].
        w = LinearScan(self._axis, not self._reverse).apply(
            (Shift(self._axis, -step).apply((a,))[0], gz))[0]
        ret = []
        for i in indexes:
            ret.append(w * Shift(self._axis, step).apply((z,))[0] if i == 0 else w)
        return tuple(ret)


class Cumprod(FunctionNode):
    def __init__(self, axis):
        self._axis = axis

    def forward(self, inputs):
        x = inputs[0]
        self._axis = normalize_cum_axis("cumprod", self._axis, x)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return backend.get_array_module(x).cumprod(x, axis=self._axis),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        axis = self._axis
        # gx[j] = y[j-1] * s[j] with s[j] = sum_{i>=j} gy[i] prod_{j<k<=i} x[k], i.e. the reverse
        # recurrence s[j] = gy[j] + x[j+1] s[j+1]; no division, so zeros in x are exact.
        s = LinearScan(axis, True).apply((Shift(axis, -1).apply((x,))[0], grad_outputs[0]))[0]
        return Shift(axis, 1, fill=1).apply((y,))[0] * s,


def cumprod(x, axis=None):
    """Cumulative product of ``x`` along ``axis`` (an int); with ``axis=None``, of ``x`` flattened.

    Returns the shape of ``x`` (1-D of ``x.size`` when ``axis`` is None).
    """
    check_axis("cumprod", axis)
    if axis is None:
        from kusari.functions.array.reshape import reshape
        x, axis = reshape(x, (-1,)), 0
    return Cumprod(axis).apply((x,))[0]
