"""prelu: the parametric rectifier, x for x >= 0 and W * x otherwise with learned slopes W."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation import _channel_param


class PReLU(FunctionNode):
    def forward(self, inputs):
        x, W = inputs
        utils.check_float("prelu", "x", x)
        utils.check_same_dtype("prelu", x=x, W=W)
        _channel_param.check_param("prelu", "W", x, W)
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        return utils.force_array(xp.where(x >= 0, x, x * _channel_param.expand(W, x.ndim))),

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy = grad_outputs[0]
        neg = (x.array < 0).astype(x.dtype)
        ret = []
        if 0 in indexes:
            # slope 1 where x >= 0 and W where x < 0; the masks are constants.
            ret.append(gy * (1 - neg) + gy * _channel_param.expand(W, x.ndim) * neg)
        if 1 in indexes:
            ret.append(_channel_param.reduce_to_param(gy * x * neg, W.shape))
        return tuple(ret)


def prelu(x, W):
    """Parametric ReLU: ``x`` where ``x >= 0``, ``W * x`` elsewhere.

    x: float array of shape ``(s_0, s_1, ..., s_N)``; W: slopes of shape ``(s_1, ..., s_M)``
    with ``M <= N``, broadcast over the other axes. Returns a Variable shaped like ``x``.
    """
    return PReLU().apply((x, W))[0]
