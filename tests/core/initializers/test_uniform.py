import math

import numpy
import pytest

from kusari import initializers

SHAPE = (300, 40, 2)  # fan_in = 80, fan_out = 600


@pytest.mark.parametrize("cls, kwargs, bound", [
    (initializers.Uniform, {}, 0.05),
    (initializers.Uniform, {"scale": 3.0}, 3.0),
    (initializers.LeCunUniform, {}, math.sqrt(3 / 80)),
    (initializers.GlorotUniform, {"scale": 0.5}, 0.5 * math.sqrt(6 / 680)),
    (initializers.HeUniform, {}, math.sqrt(6 / 80)),
])
def test_bounds_and_spread(cls, kwargs, bound):
    a = numpy.empty(SHAPE, numpy.float32)
    cls(rng=numpy.random.default_rng(1), **kwargs)(a)
    assert a.dtype == numpy.float32
    assert numpy.abs(a).max() <= bound * (1 + 1e-6)
    # U(-s, s) has standard deviation s / sqrt(3)
    assert abs(a.std() / (bound / math.sqrt(3)) - 1) < 0.02


def test_integer_array_rejected():
    with pytest.raises(TypeError, match="Uniform.*int"):
        initializers.Uniform()(numpy.empty((3,), numpy.int32))
