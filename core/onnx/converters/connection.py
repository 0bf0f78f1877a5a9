"""Converters of kusari.functions.connection: linear, convolution, deconvolution and embed_id."""
from kusari.functions.connection.convolution import Convolution
from kusari.functions.connection.deconvolution import Deconvolution
from kusari.functions.connection.embed_id import EmbedIDFunction
from kusari.functions.connection.linear import LinearFunction
from kusari.onnx.converters import register_converter


@register_converter(LinearFunction, functions=("linear",))
def _linear(ctx, node):
    """MatMul by W's transpose, then Add: the pattern ONNX Runtime fuses to Gemm and quantizes dynamically."""
    x, W = ctx.inputs[:2]
    k = node._n_batch_axes
    x_shape = ctx.in_arrays[0].shape
    if len(x_shape) != k + 1:   # F.linear flattens the trailing axes of x
        x = ctx.add("Reshape", [x, ctx.shape_for(x_shape[:k] + (-1,))])
    y = ctx.add("MatMul", [x, ctx.add("Transpose", [W], perm=[1, 0])])
    if len(ctx.inputs) == 3:
        y = ctx.add("Add", [y, ctx.inputs[2]])
    dims = ctx.dims(ctx.inputs[0]) or x_shape
    ctx.out_dims[0] = tuple(dims[:k]) + (ctx.out_arrays[0].shape[-1],)
    return y


@register_converter(Convolution,
                    functions=("convolution_1d", "convolution_2d", "convolution_3d", "convolution_nd",
                               "dilated_convolution_2d", "depthwise_convolution_2d"))
def _convolution(ctx, node):
    x_shape, w_shape = ctx.in_arrays[0].shape, ctx.in_arrays[1].shape
    nd = len(x_shape) - 2
    out = ctx.out_arrays[0].shape[2:]
    ends = []
    for i in range(nd):
        # cover_all adds windows at the end: pad there as far as the last window reaches
        reach = (out[i] - 1) * node.stride[i] + (w_shape[2 + i] - 1) * node.dilate[i] + 1
        ends.append(max(node.pad[i], reach - x_shape[2 + i] - node.pad[i]))
    return ctx.add("Conv", ctx.inputs, kernel_shape=list(w_shape[2:]), strides=list(node.stride),
                   pads=list(node.pad) + ends, dilations=list(node.dilate), group=int(node.groups))


@register_converter(Deconvolution,
                    functions=("deconvolution_1d", "deconvolution_2d", "deconvolution_3d", "deconvolution_nd"))
def _deconvolution(ctx, node):
    x_shape, w_shape = ctx.in_arrays[0].shape, ctx.in_arrays[1].shape
    nd = len(x_shape) - 2
    out = ctx.out_arrays[0].shape[2:]
    extra = []
    for i in range(nd):
        natural = (node.stride[i] * (x_shape[2 + i] - 1) + (w_shape[2 + i] - 1) * node.dilate[i] + 1
                   - 2 * node.pad[i])
        extra.append(out[i] - natural)   # an outsize one window longer than the natural size
    return ctx.add("ConvTranspose", ctx.inputs, kernel_shape=list(w_shape[2:]), strides=list(node.stride),
                   pads=list(node.pad) * 2, dilations=list(node.dilate), group=int(node.groups),
                   output_padding=extra)


@register_converter(EmbedIDFunction, functions=("embed_id",))
def _embed_id(ctx, node):
    x, W = ctx.inputs
    if node.ignore_label is None:
        return ctx.add("Gather", [W, x], axis=0)
    label = ctx.const(node.ignore_label, ctx.in_arrays[0].dtype)
    ignored = ctx.add("Equal", [x, label])
    rows = ctx.add("Gather", [W, ctx.add("Where", [ignored, ctx.const(0, ctx.in_arrays[0].dtype), x])], axis=0)
    zero = ctx.const(0, ctx.in_arrays[1].dtype)
    return ctx.add("Where", [ctx.add("Unsqueeze", [ignored, ctx.ints([-1])]), zero, rows])
