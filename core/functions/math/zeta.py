"""zeta: the Hurwitz zeta function, differentiable in q."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.math._elementwise import broadcast_shape, special, sum_to_input
from kusari.variable import Variable


class Zeta(FunctionNode):
    def __init__(self, x):
        self._x = x.array if isinstance(x, Variable) else x

    def forward(self, inputs):
        q, = inputs
        utils.check_float("zeta", "q", q)
        xp = backend.get_array_module(q)
        self._x = xp.asarray(self._x, dtype=q.dtype)
        broadcast_shape("zeta", x=self._x, q=q)
        self.retain_inputs((0,))
        return utils.force_array(special(xp, "zeta").zeta(self._x, q), q.dtype),

    def backward(self, indexes, grad_outputs):
        q, = self.get_retained_inputs()
        gq = grad_outputs[0] * zeta(self._x + 1, q) * -self._x
        return sum_to_input(gq, self.inputs[0]),


def zeta(x, q):
    """Elementwise Hurwitz zeta ``sum_{k>=0} (q + k) ** -x``.

    ``x``: scalar or array, a constant (no gradient), cast to ``q``'s dtype; ``q``: float array.
    Their shapes broadcast; returns the broadcast shape.
    """
    return Zeta(x).apply((q,))[0]
