"""lgamma, digamma and polygamma: the log-gamma function and its derivatives."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.math._elementwise import (SpecialUnaryOp, broadcast_shape, special,
                                                sum_to_input)


class LGamma(SpecialUnaryOp):
    fname = "lgamma"
    scipy_name = "gammaln"
    retain = ("x",)

    def grad(self, x, y, gy):
        return gy * digamma(x)


class DiGamma(SpecialUnaryOp):
    fname = "digamma"
    scipy_name = "digamma"
    retain = ("x",)

    def grad(self, x, y, gy):
        xp = backend.get_array_module(x.array)
        return gy * polygamma(xp.ones((), dtype=xp.int64), x)


class PolyGamma(FunctionNode):
    def forward(self, inputs):
        n, x = inputs
        if n.dtype.kind not in "iu":
            raise TypeError(f"polygamma: n must be an integer array, got dtype {n.dtype} "
                            f"(shape={n.shape})")
        utils.check_float("polygamma", "x", x)
        broadcast_shape("polygamma", n=n, x=x)
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x)
        return utils.force_array(special(xp, "polygamma").polygamma(n, x), x.dtype),

    def backward(self, indexes, grad_outputs):
        n, x = self.get_retained_inputs()
        gx = sum_to_input(grad_outputs[0] * polygamma(utils.force_array(n.array + 1), x), self.inputs[1])
        return tuple(gx if i == 1 else None for i in indexes)


def lgamma(x):
    """Elementwise ``log|Gamma(x)|``; ``x``: float array, returns the same shape."""
    return LGamma().apply((x,))[0]


def digamma(x):
    """Elementwise digamma ``d/dx log Gamma(x)``; ``x``: float array, returns the same shape."""
    return DiGamma().apply((x,))[0]


def polygamma(n, x):
    """Elementwise ``n``-th derivative of ``digamma`` at ``x``.

    ``n``: integer array (order, >= 0, not differentiated); ``x``: float array. Their shapes
    broadcast; returns the broadcast shape in ``x``'s dtype.
    """
    return PolyGamma().apply((n, x))[0]
