"""Converters of kusari.functions.loss: the pointwise regression losses (squared, absolute and Huber) with their
reductions."""
from kusari.functions.loss.absolute_error import AbsoluteError, MeanAbsoluteError
from kusari.functions.loss.huber_loss import HuberLoss
from kusari.functions.loss.squared_error import MeanSquaredError, SquaredError
from kusari.onnx.converters import register_converter


def _reduced(ctx, node, loss):
    """The elementwise ``loss`` reduced as ``node.reduce`` says (PointwiseLoss's reductions)."""
    ndim = ctx.in_arrays[0].ndim
    if node.reduce == "no":
        return loss
    if node.reduce == "mean":
        return ctx.reduce("ReduceMean", loss, range(ndim), keepdims=False)
    if node.reduce == "sum":
        return ctx.reduce("ReduceSum", loss, range(ndim), keepdims=False)
    if node.reduce == "sum_along_second_axis":
        return ctx.reduce("ReduceSum", loss, [1], keepdims=False)
    ctx.unsupported(f"reduce={node.reduce!r}")


@register_converter(SquaredError, MeanSquaredError, functions=("squared_error", "mean_squared_error"))
def _squared_error(ctx, node):
    diff = ctx.add("Sub", ctx.inputs)
    return _reduced(ctx, node, ctx.add("Mul", [diff, diff]))


@register_converter(AbsoluteError, MeanAbsoluteError, functions=("absolute_error", "mean_absolute_error"))
def _absolute_error(ctx, node):
    return _reduced(ctx, node, ctx.add("Abs", [ctx.add("Sub", ctx.inputs)]))


@register_converter(HuberLoss, functions=("huber_loss",))
def _huber_loss(ctx, node):
    """diff ** 2 / 2 where |diff| <= delta, else delta * (|diff| - delta / 2)."""
    delta = node.delta
    diff = ctx.add("Sub", ctx.inputs)
    size = ctx.add("Abs", [diff])
    quadratic = ctx.add("Mul", [ctx.add("Mul", [diff, diff]), ctx.const(0.5)])
    linear = ctx.add("Mul", [ctx.add("Sub", [size, ctx.const(0.5 * delta)]), ctx.const(delta)])
    inside = ctx.add("LessOrEqual", [size, ctx.const(delta)])
    return _reduced(ctx, node, ctx.add("Where", [inside, quadratic, linear]))
