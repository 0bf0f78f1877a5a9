"""Base of the per-parameter optimizer hooks."""
import math
import numbers


def check_real(owner: str, name: str, value, nonnegative: bool = True) -> None:
    """Raise TypeError/ValueError (naming ``owner`` and ``name``) unless ``value`` is a usable real."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{owner}: {name} must be a real number, got {type(value).__name__}")
    if math.isnan(value) or (nonnegative and value < 0):
        raise ValueError(f"{owner}: {name} must be {'non-negative' if nonnegative else 'a number'}, "
                         f"got {value!r}")


class ParamHook:
    """A hook applied to each parameter: ``hook(rule, param)`` edits ``param.grad`` in place.

    Register it on an optimizer (``optimizer.add_hook(hook)``: every parameter) or on one
    parameter (``param.update_rule.add_hook(hook)``). Parameters without a gradient are skipped.
    """

    name = None
    timing = "pre"
    call_for_each_param = True

    def __call__(self, rule, param):
        if param.array is None or param.grad is None:
            return
        self.apply(rule, param)

    def apply(self, rule, param):
        raise NotImplementedError
