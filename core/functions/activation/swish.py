"""swish: x * sigmoid(beta * x) with a learned per-channel beta, or beta = 1 (silu) without one."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation import _channel_param
from kusari.functions.activation.sigmoid import sigmoid, sigmoid_array
from kusari.functions.activation.silu import silu


class Swish(FunctionNode):
    def forward(self, inputs):
        x, beta = inputs
        utils.check_float("swish", "x", x)
        utils.check_same_dtype("swish", x=x, beta=beta)
        _channel_param.check_param("swish", "beta", x, beta)
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        return utils.force_array(x * sigmoid_array(xp, x * _channel_param.expand(beta, x.ndim))),

    def backward(self, indexes, grad_outputs):
        x, beta = self.get_retained_inputs()
        gy = grad_outputs[0]
        s = sigmoid(x * _channel_param.expand(beta, x.ndim))
        # d sigmoid(u) / du = s * (1 - s), with u = beta * x
        ds = s * (1.0 - s)
        ret = []
        if 0 in indexes:
            ret.append(gy * (s + x * _channel_param.expand(beta, x.ndim) * ds))
        if 1 in indexes:
            ret.append(_channel_param.reduce_to_param(gy * x * x * ds, beta.shape))
        return tuple(ret)


def swish(x, beta=None):
    """Swish ``x * sigmoid(beta * x)``.

    x: float array of shape ``(s_0, s_1, ..., s_N)``; beta: array of shape ``(s_1, ..., s_M)``
    with ``M <= N``, broadcast over the other axes (Chainer's learned, differentiable beta), or
    None (beta = 1, no parameter: ``silu``, as in PyTorch). Returns a Variable shaped like ``x``.
    """
    if beta is None:
        return silu(x)
    return Swish().apply((x, beta))[0]
