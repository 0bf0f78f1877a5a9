"""Channel-count rules of TensorFlow's MobileNet: round to a multiple of 8, never more than 10% down."""
from typing import Callable


def _make_divisible(v: float, divisor: int, min_value: int | None = None) -> int:
    """``v`` rounded to the nearest multiple of ``divisor`` (at least ``min_value``), rounded up
    once more when that lost more than 10% of ``v``."""
    min_value = divisor if min_value is None else min_value
    rounded = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * v else rounded


def expand_input_by_factor(n: float, divisible_by: int = 8) -> Callable[..., int]:
    """A rule ``f(num_inputs=c)`` giving ``c * n`` made divisible by ``divisible_by``."""
    return lambda num_inputs: _make_divisible(num_inputs * n, divisible_by)
