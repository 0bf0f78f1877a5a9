"""Private helpers of the loss functions: option and label checks, a pointwise-loss base, small ops.

The ops here (sigmoid, softplus, softmax, logsumexp, relu, safe_sqrt, matmul) are what the losses need in
their forward or backward passes; their backwards are built from differentiable kusari functions, so
every loss that uses them stays twice differentiable.
"""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.variable import as_array


def check_reduce(fname: str, reduce, allowed) -> None:
    """Raise ValueError unless ``reduce`` is one of ``allowed``."""
    if reduce not in allowed:
        raise ValueError(f"{fname}: reduce must be {' or '.join(repr(a) for a in allowed)}, "
                         f"got {reduce!r}")


def check_labels(fname: str, argname: str, t) -> None:
    """Raise TypeError unless ``t`` holds signed integers."""
    if t.dtype.kind != "i":
        raise TypeError(f"{fname}: {argname} must be a signed integer label array, got dtype "
                        f"{t.dtype} (shape={tuple(t.shape)})")


def check_label_range(fname: str, argname: str, t, n: int, ignore_label=None) -> None:
    """Raise ValueError if a label of ``t`` lies outside [0, n) (``ignore_label`` excepted)."""
    bad = (t < 0) | (t >= n)
    if ignore_label is not None:
        bad &= t != ignore_label
    if bool(bad.any()):
        allowed = f"[0, {n})" + ("" if ignore_label is None else f" or equal ignore_label={ignore_label}")
        raise ValueError(f"{fname}: {argname} values must be in {allowed}, found {int(t[bad][0])}")


class PointwiseLoss(FunctionNode):
    """Base of losses of same-shaped float inputs: an elementwise loss, then a reduction.

    Subclasses set ``fname``, ``argnames`` and ``reductions`` and implement ``_loss(xp, *arrays)``
    (the elementwise loss array) and ``_grads(indexes, inputs, gy)``: the gradients of
    ``sum(gy * loss)`` for the inputs in ``indexes``, where ``inputs`` are the retained input
    Variables and ``gy`` already broadcasts against the elementwise loss.
    """

    fname = ""
    argnames = ()
    reductions = ()

    def __init__(self, reduce):
        check_reduce(self.fname, reduce, self.reductions)
        self.reduce = reduce

    def forward(self, inputs):
        named = dict(zip(self.argnames, inputs))
        for name, x in named.items():
            utils.check_float(self.fname, name, x)
        utils.check_same_dtype(self.fname, **named)
        utils.check_same_shape(self.fname, **named)
        x0 = inputs[0]
        if self.reduce == "sum_along_second_axis" and x0.ndim < 2:
            raise ValueError(f"{self.fname}: reduce='sum_along_second_axis' needs inputs of at least "
                             f"2 dimensions, got {self.argnames[0]}.shape={x0.shape}")
        self.retain_inputs(tuple(range(len(inputs))))
        loss = self._loss(backend.get_array_module(x0), *inputs)
        if self.reduce == "sum":
            loss = loss.sum()
        elif self.reduce == "mean":
            loss = loss.mean()
        elif self.reduce == "sum_along_second_axis":
            loss = loss.sum(axis=1)
        return utils.force_array(loss),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.reshape import reshape
        gy, = grad_outputs
        shape = self.inputs[0].shape
        if self.reduce == "mean":
            gy = gy * (1.0 / max(utils.size_of_shape(shape), 1))
        elif self.reduce == "sum_along_second_axis":
            gy = reshape(gy, shape[:1] + (1,) + shape[2:])
        return self._grads(indexes, self.get_retained_inputs(), gy)

    def _loss(self, xp, *arrays):
        raise NotImplementedError

    def _grads(self, indexes, inputs, gy):
        raise NotImplementedError


class Sigmoid(FunctionNode):
    """Elementwise logistic function 1 / (1 + exp(-x))."""

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        # tanh form: no overflow for large |x|, and Python constants keep the dtype.
        return utils.force_array(backend.get_array_module(x).tanh(x * 0.5) * 0.5 + 0.5),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y * (1 - y),


class Softplus(FunctionNode):
    """Elementwise log(1 + exp(x)), computed without overflow."""

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        return utils.force_array(xp.maximum(x, 0) + xp.log1p(xp.exp(-abs(x)))),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * sigmoid(x),


class Softmax(FunctionNode):
    """Softmax along ``axis``; ``y`` is an already computed result to reuse instead of recomputing."""

    def __init__(self, axis, y=None):
        self._axis = axis
        self._y = y

    def forward(self, inputs):
        x, = inputs
        y, self._y = self._y, None
        if y is None:
            xp = backend.get_array_module(x)
            y = xp.exp(x - x.max(axis=self._axis, keepdims=True))
            y /= y.sum(axis=self._axis, keepdims=True)
        self.retain_outputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.broadcast import broadcast_to
        from kusari.functions.math.sum import sum as _sum
        y, = self.get_retained_outputs()
        gx = y * grad_outputs[0]
        return gx - y * broadcast_to(_sum(gx, axis=self._axis, keepdims=True), y.shape),


def log_softmax_and_softmax(xp, x, axis):
    """Arrays log(softmax(x)) and softmax(x) along ``axis``, from one exp pass."""
    z = x - x.max(axis=axis, keepdims=True)
    e = xp.exp(z)
    total = e.sum(axis=axis, keepdims=True)
    z -= xp.log(total)
    e /= total
    return z, e


def sigmoid(x):
    return Sigmoid().apply((x,))[0]


def softplus(x):
    return Softplus().apply((x,))[0]


def softmax(x, axis=1, y=None):
    return Softmax(axis, y).apply((x,))[0]


def logsumexp(x, axis):
    """log(sum(exp(x), axis)) of a Variable, shifted by the (constant) maximum for stability."""
    from kusari.functions.math.exponential import exp, log
    from kusari.functions.math.sum import sum as _sum
    xp = backend.get_array_module(x)
    m = as_array(x).max(axis=axis, keepdims=True)
    m = xp.where(xp.isfinite(m), m, 0)
    return log(_sum(exp(x - m), axis=axis)) + m.squeeze(axis=axis)


def relu(x):
    """max(x, 0) of a Variable (its gradient is the constant mask x > 0)."""
    data = as_array(x)
    return x * (data > 0).astype(data.dtype)


def safe_sqrt(s):
    """sqrt of a non-negative Variable whose gradient is taken as 0 where ``s`` is 0 (not inf)."""
    data = as_array(s)
    zero = (data == 0).astype(data.dtype)
    return (s + zero) ** 0.5 * (1 - zero)


class MatMul(FunctionNode):
    """Product of two matrices."""

    def forward(self, inputs):
        a, b = inputs
        self.retain_inputs((0, 1))
        return a @ b,

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.transpose import transpose
        a, b = self.get_retained_inputs()
        gy, = grad_outputs
        return tuple(matmul(gy, transpose(b)) if i == 0 else matmul(transpose(a), gy)
                     for i in indexes)


def matmul(a, b):
    return MatMul().apply((a, b))[0]


def center_columns(x):
    """``x`` minus its mean over axis 0, as a Variable."""
    from kusari.functions.math.sum import mean
    return x - mean(x, axis=0, keepdims=True)
