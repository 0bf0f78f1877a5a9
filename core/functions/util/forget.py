"""forget: call a function without keeping its intermediate results; recompute them in backward."""
from kusari import backend
from kusari._backprop import grad
from kusari.configuration import config, force_backprop_mode, no_backprop_mode
from kusari.function_node import FunctionNode
from kusari.variable import Variable


def _call(func, xs):
    """``func(*xs)`` as a tuple of Variables, and whether ``func`` returned a single Variable."""
    outs = func(*xs)
    if isinstance(outs, Variable):
        return (outs,), True
    if isinstance(outs, tuple) and outs and all(isinstance(y, Variable) for y in outs):
        return outs, False
    got = type(outs).__name__ if not isinstance(outs, tuple) else \
        "(" + ", ".join(type(y).__name__ for y in outs) + ")"
    raise TypeError(f"forget: func must return a Variable or a non-empty tuple of Variables, "
                    f"got {got}")


class Forget(FunctionNode):
    """Runs ``func`` without recording its graph; backward runs it again to get the gradients."""

    def __init__(self, func):
        self.func = func

    @property
    def label(self):
        return f"Forget({getattr(self.func, '__name__', type(self.func).__name__)})"

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        with no_backprop_mode():
            outs, self.single = _call(self.func, [Variable(x) for x in inputs])
        return tuple(y.array for y in outs)

    def backward(self, indexes, grad_outputs):
        xs = self.get_retained_inputs()
        with_grad = tuple(k for k, g in enumerate(grad_outputs) if g is not None)
        gys = tuple(grad_outputs[k] for k in with_grad)
        # The map (xs, gys) -> gxs is itself run under Forget: its own backward (double
        # backprop) recomputes once more instead of keeping the first recomputation's graph.
        vjp = _VectorJacobianProduct(self.func, len(xs), indexes, with_grad)
        return Forget(vjp).apply(xs + gys)


class _VectorJacobianProduct:
    """``(*xs, *gys) -> gradients of func's outputs (weighted by gys) w.r.t. xs[indexes]``."""

    def __init__(self, func, n_inputs, indexes, with_grad):
        self.func = func
        self.n_inputs = n_inputs
        self.indexes = indexes
        self.with_grad = with_grad
        self.__name__ = f"grad_of_{getattr(func, '__name__', type(func).__name__)}"

    def __call__(self, *args):
        xs, gys = args[:self.n_inputs], args[self.n_inputs:]
        double = config.enable_backprop
        with force_backprop_mode():
            outs, _ = _call(self.func, xs)
        targets = [xs[i] for i in self.indexes]
        gxs = grad([outs[k] for k in self.with_grad], targets, list(gys),
                   enable_double_backprop=double)
        return tuple(_zeros_like(x) if g is None else g for g, x in zip(gxs, targets))


def _zeros_like(x):
    return Variable(backend.get_array_module(x.array).zeros_like(x.array), requires_grad=False)


def forget(func, *xs):
    """Call ``func(*xs)`` without storing its intermediate results; backward calls it again.

    Trades computation for memory: only ``xs`` are kept for backward, where ``func`` is run a
    second time to rebuild its graph. ``func`` must be deterministic (no dropout or other random
    ops: the second call would draw different noise). Double backprop works when ``func``'s ops
    support it. func: callable taking Variables and returning a Variable or a tuple of
    Variables. xs: Variables or arrays. Returns what ``func`` returns (Variable or tuple).
    """
    if not callable(func):
        raise TypeError(f"forget: func must be callable, got {type(func).__name__}")
    node = Forget(func)
    ys = node.apply(xs)
    return ys[0] if node.single else ys
