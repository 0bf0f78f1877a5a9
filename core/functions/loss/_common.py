"""Private helpers of the loss functions: option and label checks, a pointwise-loss base, small ops.

The losses use the public ops (sigmoid, softplus, softmax, logsumexp, relu, matmul) for their
differentiable parts; only what has no public equivalent lives here.
"""
import numpy

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


def check_margin(fname: str, margin) -> float:
    """``margin`` as a float; ValueError unless it is positive."""
    margin = float(margin)
    if not margin > 0:
        raise ValueError(f"{fname}: margin must be positive, got {margin}")
    return margin


def check_sampled_inputs(fname: str, x, t, W) -> None:
    """Checks of the sampled-softmax losses: x (N, D) and W (V, D) of one float dtype, labels t (N,)."""
    utils.check_float(fname, "x", x)
    utils.check_float(fname, "W", W)
    utils.check_same_dtype(fname, x=x, W=W)
    utils.check_ndim(fname, "x", x, 2)
    utils.check_ndim(fname, "W", W, 2)
    check_labels(fname, "t", t)
    if t.shape != x.shape[:1]:
        raise ValueError(f"{fname}: t.shape={t.shape} does not match x.shape[0]={x.shape[0]} "
                         f"(x.shape={x.shape})")
    if W.shape[1] != x.shape[1]:
        raise ValueError(f"{fname}: x.shape[1]={x.shape[1]} does not match W.shape[1]={W.shape[1]} "
                         f"(x.shape={x.shape}, W.shape={W.shape})")


_FEW_LABELS = 64


def check_label_range(fname: str, argname: str, t, n: int, ignore_label=None) -> bool:
    """Raise ValueError if a label of ``t`` lies outside [0, n) (``ignore_label`` excepted).

    Returns whether every label lies in [0, n) (one min and one max; the detailed scan runs only
    when they say some label is outside). A few labels on the host are checked as a Python list,
    which costs less than the two reductions.
    """
    if t.size == 0:
        return True
    if t.size <= _FEW_LABELS and isinstance(t, numpy.ndarray):
        labels = t.ravel().tolist()
        if min(labels) >= 0 and max(labels) < n:
            return True
    elif int(t.min()) >= 0 and int(t.max()) < n:
        return True
    bad = (t < 0) | (t >= n)
    if ignore_label is not None:
        bad &= t != ignore_label
    if bool(bad.any()):
        allowed = f"[0, {n})" + ("" if ignore_label is None else f" or equal ignore_label={ignore_label}")
        raise ValueError(f"{fname}: {argname} values must be in {allowed}, found {int(t[bad][0])}")
    return False


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
        gy = self._elementwise_gy(grad_outputs[0])
        return self._grads(indexes, self.get_retained_inputs(), gy)

    def _elementwise_gy(self, gy):
        """The reduced loss's gradient ``gy`` (a Variable) made to broadcast against the elementwise loss."""
        from kusari.functions.array.reshape import reshape
        shape = self.inputs[0].shape
        if self.reduce == "mean":
            return gy * (1.0 / max(utils.size_of_shape(shape), 1))
        if self.reduce == "sum_along_second_axis":
            return reshape(gy, shape[:1] + (1,) + shape[2:])
        return gy

    def _loss(self, xp, *arrays):
        raise NotImplementedError

    def _grads(self, indexes, inputs, gy):
        raise NotImplementedError


def safe_sqrt(s):
    """sqrt of a non-negative Variable whose gradient is taken as 0 where ``s`` is 0 (not inf)."""
    data = as_array(s)
    zero = (data == 0).astype(data.dtype)
    return (s + zero) ** 0.5 * (1 - zero)


def center_columns(x):
    """``x`` minus its mean over axis 0, as a Variable."""
    from kusari.functions.math.sum import mean
    return x - mean(x, axis=0, keepdims=True)
