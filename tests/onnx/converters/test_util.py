"""Export of the non-differentiable ops (comparisons, rounding) run in ONNX Runtime."""
import operator

import numpy
import pytest

import kusari.functions as F

rng = numpy.random.default_rng(3)
ROUNDING = ["ceil", "floor", "fix", "sign"]


@pytest.mark.parametrize("name", ROUNDING)
def test_rounding_matches_onnxruntime(name, check):
    check(lambda x: getattr(F, name)(x) * x, lambda n: (rng.standard_normal((n, 4)).astype(numpy.float32) * 3,))


@pytest.mark.parametrize("compare", ["lt", "le", "gt", "ge", "eq", "ne"])
def test_comparisons_match_onnxruntime(compare, check):
    op = getattr(operator, compare)
    check(lambda x, y: F.where(op(x, y), x, y) + F.where(op(x, 0.25), x, y),
          lambda n: (rng.integers(-1, 2, (n, 4)).astype(numpy.float32) / 4,
                     rng.integers(-1, 2, (n, 4)).astype(numpy.float32) / 4))


def test_every_declared_util_function_is_tested(declared):
    assert declared("util") <= set(ROUNDING)
