"""Converters of kusari.functions.util's NonDifferentiable ops: comparisons and rounding, told apart by label."""
from kusari.functions.util.non_differentiable import NonDifferentiable
from kusari.onnx.converters import register_converter

_COMPARISONS = {"lt": ("Less", False), "le": ("LessOrEqual", False), "gt": ("Greater", False),
                "ge": ("GreaterOrEqual", False), "eq": ("Equal", False), "ne": ("Equal", True)}
_ROUNDING = {"ceil": "Ceil", "floor": "Floor", "sign": "Sign"}


def _scalar_operand(ctx, node):
    """The Python scalar of ``variable < 0.5``: Variable's comparison operators keep it in their closure."""
    fn = node._fn
    cells = dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))
    if "other" not in cells:
        ctx.unsupported(f"{node.label} with operands it does not take as inputs")
    return ctx.const(cells["other"])


@register_converter(NonDifferentiable, functions=("ceil", "floor", "fix", "sign"))
def _non_differentiable(ctx, node):
    label = node.label
    if label in _COMPARISONS:
        op_type, negate = _COMPARISONS[label]
        other = ctx.inputs[1] if len(ctx.inputs) == 2 else _scalar_operand(ctx, node)
        y = ctx.add(op_type, [ctx.inputs[0], other])
        return ctx.add("Not", [y]) if negate else y
    if label in _ROUNDING:
        return ctx.add(_ROUNDING[label], ctx.inputs)
    if label == "fix":   # round towards zero
        x = ctx.inputs[0]
        return ctx.add("Mul", [ctx.add("Sign", [x]), ctx.add("Floor", [ctx.add("Abs", [x])])])
    ctx.unsupported(f"the non-differentiable computation {label!r} is plain Python code")
