"""Converters of kusari.functions.activation: elementwise activations, softmax and the stateless LSTM."""
import math

from kusari.functions.activation.clipped_relu import ClippedReLU
from kusari.functions.activation.crelu import CReLU
from kusari.functions.activation.elu import ELU
from kusari.functions.activation.gelu import GELU
from kusari.functions.activation.hard_sigmoid import HardSigmoid
from kusari.functions.activation.hard_swish import HardSwish
from kusari.functions.activation.leaky_relu import LeakyReLU
from kusari.functions.activation.log_softmax import LogSoftmax
from kusari.functions.activation.lstm import LSTM
from kusari.functions.activation.maxout import Maxout
from kusari.functions.activation.mish import Mish
from kusari.functions.activation.prelu import PReLU
from kusari.functions.activation.relu import ReLU
from kusari.functions.activation.sigmoid import Sigmoid
from kusari.functions.activation.silu import SiLU
from kusari.functions.activation.softmax import Softmax
from kusari.functions.activation.softplus import Softplus
from kusari.functions.activation.swish import Swish
from kusari.functions.activation.tanh import Tanh
from kusari.onnx.converters import register_converter


def _unary(op_type):
    def convert(ctx, node):
        return ctx.add(op_type, ctx.inputs[:1])
    return convert


register_converter(ReLU, functions=("relu",))(_unary("Relu"))
register_converter(Sigmoid, functions=("sigmoid",))(_unary("Sigmoid"))
register_converter(Tanh, functions=("tanh",))(_unary("Tanh"))


@register_converter(LeakyReLU, functions=("leaky_relu",))
def _leaky_relu(ctx, node):
    return ctx.add("LeakyRelu", ctx.inputs, alpha=float(node.slope))


@register_converter(ClippedReLU, functions=("clipped_relu", "relu6"))
def _clipped_relu(ctx, node):
    return ctx.add("Clip", [ctx.inputs[0], ctx.const(0), ctx.const(node.z)])


@register_converter(HardSigmoid, functions=("hard_sigmoid",))
def _hard_sigmoid(ctx, node):
    return ctx.add("HardSigmoid", ctx.inputs, alpha=0.2, beta=0.5)


@register_converter(HardSwish, functions=("hard_swish",))
def _hard_swish(ctx, node):
    return ctx.add("HardSwish", ctx.inputs)   # x * max(0, min(1, x / 6 + 1 / 2)): relu6(x + 3) / 6


@register_converter(Softmax, functions=("softmax",))
def _softmax(ctx, node):
    return ctx.add("Softmax", ctx.inputs, axis=int(node.axis))


@register_converter(LogSoftmax, functions=("log_softmax",))
def _log_softmax(ctx, node):
    return ctx.add("LogSoftmax", ctx.inputs, axis=int(node.axis))


@register_converter(ELU, functions=("elu", "selu"))
def _elu(ctx, node):
    y = ctx.add("Elu", ctx.inputs, alpha=float(node.alpha))
    return y if node.scale == 1 else ctx.add("Mul", [y, ctx.const(node.scale)])


@register_converter(Softplus, functions=("softplus",))
def _softplus(ctx, node):
    if node.beta == 1:
        return ctx.add("Softplus", ctx.inputs)
    scaled = ctx.add("Softplus", [ctx.add("Mul", [ctx.inputs[0], ctx.const(node.beta)])])
    return ctx.add("Div", [scaled, ctx.const(node.beta)])


@register_converter(SiLU, functions=("silu",))
def _silu(ctx, node):
    x = ctx.inputs[0]
    return ctx.add("Mul", [x, ctx.add("Sigmoid", [x])])


@register_converter(Mish, functions=("mish",))
def _mish(ctx, node):
    x = ctx.inputs[0]
    return ctx.add("Mul", [x, ctx.add("Tanh", [ctx.add("Softplus", [x])])])


@register_converter(GELU, functions=("gelu",))
def _gelu(ctx, node):
    x = ctx.inputs[0]
    if node.approximate == "tanh":
        cube = ctx.add("Mul", [ctx.add("Mul", [x, x]), x])
        inner = ctx.add("Mul", [ctx.add("Add", [x, ctx.add("Mul", [cube, ctx.const(0.044715)])]),
                                ctx.const(math.sqrt(2 / math.pi))])
        cdf = ctx.add("Add", [ctx.add("Tanh", [inner]), ctx.const(1)])
    else:
        cdf = ctx.add("Add", [ctx.add("Erf", [ctx.add("Mul", [x, ctx.const(1 / math.sqrt(2))])]), ctx.const(1)])
    return ctx.add("Mul", [ctx.add("Mul", [x, cdf]), ctx.const(0.5)])


def channel_param(ctx, i):
    """Input ``i`` (a per-channel parameter of shape ``x.shape[1:1 + k]``) reshaped to broadcast against x."""
    x_ndim, shape = ctx.in_arrays[0].ndim, tuple(ctx.in_arrays[i].shape)
    return ctx.add("Reshape", [ctx.inputs[i], ctx.ints((1,) + shape + (1,) * (x_ndim - 1 - len(shape)))])


@register_converter(PReLU, functions=("prelu",))
def _prelu(ctx, node):
    return ctx.add("PRelu", [ctx.inputs[0], channel_param(ctx, 1)])


@register_converter(Swish, functions=("swish",))
def _swish(ctx, node):
    x = ctx.inputs[0]
    return ctx.add("Mul", [x, ctx.add("Sigmoid", [ctx.add("Mul", [x, channel_param(ctx, 1)])])])


@register_converter(LSTM, functions=("lstm",))
def _lstm(ctx, node):
    """Chainer's gate layout: x (N, 4H, ...) holds a, i, f, o interleaved along axis 1 (x.reshape(N, H, 4, ...))."""
    c_prev, x = ctx.inputs
    c_shape, x_shape = ctx.in_arrays[0].shape, ctx.in_arrays[1].shape
    n, h = x_shape[0], x_shape[1] // 4
    rest = tuple(x_shape[2:])
    gates = ctx.add("Reshape", [x, ctx.ints((0 if ctx.dynamic(1)[0] else n, h, 4) + rest)])
    a, i, f, o = ctx.add("Split", [gates, ctx.ints([1, 1, 1, 1])], n_outputs=4, axis=2)
    squeeze = ctx.ints([2])
    a, i, f, o = (ctx.add("Squeeze", [g, squeeze]) for g in (a, i, f, o))
    a = ctx.add("Tanh", [a])
    i, f, o = (ctx.add("Sigmoid", [g]) for g in (i, f, o))
    if c_shape[0] != n:   # a shorter batch continues the first rows of c_prev; the rest carry over
        ctx.unsupported(f"c_prev has {c_shape[0]} rows and x {n}; export needs equal batches")
    c = ctx.add("Add", [ctx.add("Mul", [a, i]), ctx.add("Mul", [f, c_prev])])
    y = ctx.add("Mul", [o, ctx.add("Tanh", [c])])
    return [c, y]


@register_converter(CReLU, functions=("crelu",))
def _crelu(ctx, node):
    x = ctx.inputs[0]
    return ctx.add("Concat", [ctx.add("Relu", [x]), ctx.add("Relu", [ctx.add("Neg", [x])])], axis=int(node.axis))


@register_converter(Maxout, functions=("maxout",))
def _maxout(ctx, node):
    """The channel axis split into (channels / pool_size, pool_size), then the maximum over the pool."""
    shape, axis, k = ctx.in_arrays[0].shape, int(node.axis), int(node.pool_size)
    dynamic = ctx.dynamic(0)
    if any(dynamic[axis:]):
        ctx.unsupported("a dynamic axis at or after the maxout axis")
    target = [0] * axis + [shape[axis] // k, k] + list(shape[axis + 1:])   # 0 copies the leading sizes
    pooled = ctx.add("Reshape", [ctx.inputs[0], ctx.ints(target)])
    return ctx.reduce("ReduceMax", pooled, [axis + 1], False)
