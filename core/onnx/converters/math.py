"""Converters of kusari.functions.math: arithmetic, elementwise functions, matmul and reductions."""
import math

import numpy

from kusari.functions.math.absolute import Absolute as AbsoluteFunction
from kusari.functions.math.argmax import ArgMax, ArgMin
from kusari.functions.math.basic_math import (Absolute, Add, AddConstant, Div, DivFromConstant, Mul, MulConstant,
                                              Neg, PowConstVar, PowVarConst, PowVarVar, Sub, SubFromConstant)
from kusari.functions.math.batch_l2_norm_squared import BatchL2NormSquared
from kusari.functions.math.clip import Clip
from kusari.functions.math.cumsum import Cumsum
from kusari.functions.math.einsum import EinSum
from kusari.functions.math.erf import Erf, Erfc
from kusari.functions.math.fmod import Fmod
from kusari.functions.math.exponential import Exp, Expm1, Log, Log10, Log1p, Log2
from kusari.functions.math.hyperbolic import Arctanh, Cosh, Sinh
from kusari.functions.math.identity import Identity
from kusari.functions.math.linear_interpolate import LinearInterpolate
from kusari.functions.math.logsumexp import LogSumExp
from kusari.functions.math.matmul import MatMul
from kusari.functions.math.maximum import Maximum, Minimum
from kusari.functions.math.minmax import Max, Min
from kusari.functions.math.ndtr import Ndtr
from kusari.functions.math.prod import Prod
from kusari.functions.math.sqrt import Rsqrt, Sqrt
from kusari.functions.math.square import Square
from kusari.functions.math.squared_difference import SquaredDifference
from kusari.functions.math.sum import Sum
from kusari.functions.math.tensordot import TensorDot
from kusari.functions.math.trigonometric import Arccos, Arcsin, Arctan, Cos, Sin, Tan
from kusari.onnx.converters import register_converter


def _elementwise(op_type):
    def convert(ctx, node):
        return ctx.add(op_type, ctx.inputs)
    return convert


for _cls, _op, _names in (
        (Add, "Add", ("add",)), (Sub, "Sub", ()), (Mul, "Mul", ()),
        (Div, "Div", ()), (PowVarVar, "Pow", ()), (Neg, "Neg", ()),
        (Absolute, "Abs", ()), (AbsoluteFunction, "Abs", ("absolute",)),
        (Exp, "Exp", ("exp",)), (Log, "Log", ("log",)),
        (Sqrt, "Sqrt", ("sqrt",)), (Erf, "Erf", ("erf",)),
        (Sin, "Sin", ("sin",)), (Cos, "Cos", ("cos",)),
        (Tan, "Tan", ("tan",)), (Arcsin, "Asin", ("arcsin",)),
        (Arccos, "Acos", ("arccos",)), (Arctan, "Atan", ("arctan",)),
        (Sinh, "Sinh", ("sinh",)), (Cosh, "Cosh", ("cosh",)),
        (Arctanh, "Atanh", ("arctanh",)),
        (Maximum, "Max", ("maximum",)), (Minimum, "Min", ("minimum",))):
    register_converter(_cls, functions=_names)(_elementwise(_op))


@register_converter(Identity, functions=("identity",))
def _identity(ctx, node):
    return [ctx.add("Identity", [x]) for x in ctx.inputs]


@register_converter(AddConstant)
def _add_constant(ctx, node):
    return ctx.add("Add", [ctx.inputs[0], ctx.const(node.value)])


@register_converter(SubFromConstant)
def _sub_from_constant(ctx, node):
    return ctx.add("Sub", [ctx.const(node.value), ctx.inputs[0]])


@register_converter(MulConstant)
def _mul_constant(ctx, node):
    return ctx.add("Mul", [ctx.inputs[0], ctx.const(node.value)])


@register_converter(DivFromConstant)
def _div_from_constant(ctx, node):
    return ctx.add("Div", [ctx.const(node.value), ctx.inputs[0]])


@register_converter(PowVarConst)
def _pow_var_const(ctx, node):
    return ctx.add("Pow", [ctx.inputs[0], ctx.const(node.value)])


@register_converter(PowConstVar)
def _pow_const_var(ctx, node):
    return ctx.add("Pow", [ctx.const(node.value), ctx.inputs[0]])


@register_converter(Log2, Log10, functions=("log2", "log10"))
def _log_base(ctx, node):
    base = 2.0 if isinstance(node, Log2) else 10.0
    return ctx.add("Mul", [ctx.add("Log", ctx.inputs), ctx.const(1 / math.log(base))])


@register_converter(Expm1, functions=("expm1",))
def _expm1(ctx, node):
    return ctx.add("Sub", [ctx.add("Exp", ctx.inputs), ctx.const(1)])


@register_converter(Log1p, functions=("log1p",))
def _log1p(ctx, node):
    return ctx.add("Log", [ctx.add("Add", [ctx.inputs[0], ctx.const(1)])])


@register_converter(Rsqrt, functions=("rsqrt",))
def _rsqrt(ctx, node):
    return ctx.add("Reciprocal", [ctx.add("Sqrt", ctx.inputs)])


@register_converter(Square, functions=("square",))
def _square(ctx, node):
    return ctx.add("Mul", [ctx.inputs[0], ctx.inputs[0]])


@register_converter(SquaredDifference, functions=("squared_difference",))
def _squared_difference(ctx, node):
    d = ctx.add("Sub", ctx.inputs)
    return ctx.add("Mul", [d, d])


@register_converter(LinearInterpolate, functions=("linear_interpolate",))
def _linear_interpolate(ctx, node):
    p, x, y = ctx.inputs
    return ctx.add("Add", [ctx.add("Mul", [p, ctx.add("Sub", [x, y])]), y])


@register_converter(Clip, functions=("clip",))
def _clip(ctx, node):
    bounds = [ctx.const(v) if v is not None else "" for v in (node.x_min, node.x_max)]
    return ctx.add("Clip", [ctx.inputs[0]] + bounds)


def _swap_last(ctx, name, ndim):
    perm = list(range(ndim))
    perm[-2:] = perm[-1], perm[-2]
    return ctx.add("Transpose", [name], perm=perm)


@register_converter(MatMul, functions=("matmul", "batch_matmul"))
def _matmul(ctx, node):
    a, b = ctx.inputs
    a_ndim, b_ndim = ctx.in_arrays[0].ndim, ctx.in_arrays[1].ndim
    if node.transa and a_ndim > 1:
        a = _swap_last(ctx, a, a_ndim)
    if node.transb and b_ndim > 1:
        b = _swap_last(ctx, b, b_ndim)
    return ctx.add("MatMul", [a, b])


def _reduction(op_type):
    def convert(ctx, node):
        return ctx.reduce(op_type, ctx.inputs[0], node._axes, node._keepdims)
    return convert


register_converter(Sum, functions=("sum",))(_reduction("ReduceSum"))
register_converter(Max, functions=("max",))(_reduction("ReduceMax"))
register_converter(Min, functions=("min",))(_reduction("ReduceMin"))
register_converter(Prod, functions=("prod",))(_reduction("ReduceProd"))


@register_converter(Cumsum, functions=("cumsum",))
def _cumsum(ctx, node):
    return ctx.add("CumSum", [ctx.inputs[0], ctx.const(node._axis, numpy.int64)])


@register_converter(EinSum, functions=("einsum",))
def _einsum(ctx, node):
    return ctx.add("Einsum", ctx.inputs, equation=",".join(node._in_subs) + "->" + node._out_sub)


@register_converter(BatchL2NormSquared, functions=("batch_l2_norm_squared",))
def _batch_l2_norm_squared(ctx, node):
    x = ctx.inputs[0]
    return ctx.reduce("ReduceSum", ctx.add("Mul", [x, x]), range(1, ctx.in_arrays[0].ndim), False)


@register_converter(LogSumExp, functions=("logsumexp",))
def _logsumexp(ctx, node):
    # max-shifted, as kusari computes it: ReduceLogSumExp overflows in float32 for large inputs
    x = ctx.inputs[0]
    m = ctx.reduce("ReduceMax", x, node._axes, True)
    s = ctx.reduce("ReduceSum", ctx.add("Exp", [ctx.add("Sub", [x, m])]), node._axes, False)
    m = ctx.add("Squeeze", [m, ctx.ints(node._axes)])
    return ctx.add("Add", [ctx.add("Log", [s]), m])


@register_converter(ArgMax, ArgMin, functions=("argmax", "argmin"))
def _argmax(ctx, node):
    op_type = "ArgMax" if isinstance(node, ArgMax) else "ArgMin"
    x, axis = ctx.inputs[0], node._axis
    if axis is None:
        x, axis = ctx.add("Reshape", [x, ctx.ints([-1])]), 0
    y = ctx.add(op_type, [x], axis=int(axis) % max(ctx.in_arrays[0].ndim, 1), keepdims=0,
                select_last_index=0)
    out_dtype = ctx.out_arrays[0].dtype
    return y if out_dtype == numpy.int64 else ctx.add("Cast", [y], to=ctx.tensor_type(out_dtype))


@register_converter(Erfc, functions=("erfc",))
def _erfc(ctx, node):
    return ctx.add("Sub", [ctx.const(1), ctx.add("Erf", ctx.inputs)])


@register_converter(Ndtr, functions=("ndtr",))
def _ndtr(ctx, node):
    """The standard normal CDF, (1 + erf(x / sqrt(2))) / 2."""
    erf = ctx.add("Erf", [ctx.add("Mul", [ctx.inputs[0], ctx.const(1 / math.sqrt(2))])])
    return ctx.add("Mul", [ctx.add("Add", [erf, ctx.const(1)]), ctx.const(0.5)])


@register_converter(Fmod, functions=("fmod",))
def _fmod(ctx, node):
    return ctx.add("Mod", ctx.inputs, fmod=1)   # C's fmod: the sign of the dividend


@register_converter(TensorDot, functions=("tensordot",))
def _tensordot(ctx, node):
    """An Einsum whose equation pairs the contracted axes."""
    a_ndim, b_ndim = ctx.in_arrays[0].ndim, ctx.in_arrays[1].ndim
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    a_sub = [next(letters) for _ in range(a_ndim)]
    b_sub = [next(letters) for _ in range(b_ndim)]
    for i, j in zip(node._a_axes, node._b_axes):
        b_sub[j] = a_sub[i]
    out = [c for k, c in enumerate(a_sub) if k not in node._a_axes] + \
          [c for k, c in enumerate(b_sub) if k not in node._b_axes]
    return ctx.add("Einsum", ctx.inputs, equation=f"{''.join(a_sub)},{''.join(b_sub)}->{''.join(out)}")
