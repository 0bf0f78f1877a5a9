"""Converters of kusari.functions.normalization: batch (fixed statistics), layer, group, L2 and local response."""
from kusari.functions.normalization._standardize import Standardize
from kusari.functions.normalization.batch_normalization import FixedBatchNormalization
from kusari.functions.normalization.l2_normalization import NormalizeL2
from kusari.functions.normalization.local_response_normalization import LocalResponseNormalization
from kusari.onnx.converters import register_converter


@register_converter(FixedBatchNormalization,
                    functions=("fixed_batch_normalization",))
def _fixed_batch_normalization(ctx, node):
    x_shape = ctx.in_arrays[0].shape
    if tuple(node.expanded) == (1, x_shape[1]) + (1,) * (len(x_shape) - 2):
        return ctx.add("BatchNormalization", ctx.inputs, epsilon=node.eps)
    x, gamma, beta, mean, var = ctx.inputs
    shape = ctx.ints(node.expanded)
    inv_std = ctx.add("Reciprocal", [ctx.add("Sqrt", [ctx.add("Add", [var, ctx.const(node.eps)])])])
    scale = ctx.add("Reshape", [ctx.add("Mul", [gamma, inv_std]), shape])
    centred = ctx.add("Sub", [x, ctx.add("Reshape", [mean, shape])])
    return ctx.add("Add", [ctx.add("Mul", [centred, scale]), ctx.add("Reshape", [beta, shape])])


@register_converter(Standardize, functions=("layer_normalization", "group_normalization"))
def _standardize(ctx, node):
    """(x - mean) / sqrt(var + eps) over ``node.axes`` (the core of layer and group normalization)."""
    x = ctx.inputs[0]
    centred = ctx.add("Sub", [x, ctx.reduce("ReduceMean", x, node.axes, True)])
    var = ctx.reduce("ReduceMean", ctx.add("Mul", [centred, centred]), node.axes, True)
    return ctx.add("Div", [centred, ctx.add("Sqrt", [ctx.add("Add", [var, ctx.const(node.eps)])])])


@register_converter(NormalizeL2, functions=("normalize",))
def _normalize(ctx, node):
    x = ctx.inputs[0]
    norm = ctx.add("Sqrt", [ctx.reduce("ReduceSum", ctx.add("Mul", [x, x]), node.axes, True)])
    return ctx.add("Div", [x, ctx.add("Add", [norm, ctx.const(node.eps)])])


@register_converter(LocalResponseNormalization,
                    functions=("local_response_normalization",))
def _local_response_normalization(ctx, node):
    size = 2 * node.half + 1
    return ctx.add("LRN", ctx.inputs, size=size, alpha=node.alpha * size, beta=node.beta, bias=node.k)
