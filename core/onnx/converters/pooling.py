"""Converters of kusari.functions.pooling: max and average pooling."""
from kusari.functions.pooling.average_pooling_nd import AveragePoolingND
from kusari.functions.pooling.max_pooling_nd import MaxPoolingND
from kusari.onnx.converters import register_converter


def _window(ctx, geom):
    """ONNX kernel_shape, strides and pads giving kusari's output size (cover_all pads the end as needed)."""
    in_shape = ctx.in_arrays[0].shape[2:]
    ends = []
    for i, size in enumerate(in_shape):
        reach = (geom.outs[i] - 1) * geom.stride[i] + geom.ksize[i]
        ends.append(max(0, reach - size - geom.pad[i]))
    return {"kernel_shape": list(geom.ksize), "strides": list(geom.stride), "pads": list(geom.pad) + ends}


@register_converter(MaxPoolingND,
                    functions=("max_pooling_1d", "max_pooling_2d", "max_pooling_3d", "max_pooling_nd"))
def _max_pooling(ctx, node):
    if node._return_indices:
        ctx.unsupported("return_indices=True")
    return ctx.add("MaxPool", ctx.inputs, **_window(ctx, node._geom))


@register_converter(AveragePoolingND,
                    functions=("average_pooling_1d", "average_pooling_2d", "average_pooling_3d",
                               "average_pooling_nd"))
def _average_pooling(ctx, node):
    window = _window(ctx, node._geom)
    if window["pads"][len(window["pads"]) // 2:] != list(node._geom.pad):
        ctx.unsupported("a window reaching past the padding")
    return ctx.add("AveragePool", ctx.inputs, count_include_pad=int(node._pad_value is not None), **window)
