import math

import numpy
import pytest

from kusari import initializers

SHAPE = (200, 50, 3, 3)  # fan_in = 450, fan_out = 1800


@pytest.mark.parametrize("cls, kwargs, std", [
    (initializers.Normal, {}, 0.05),
    (initializers.Normal, {"scale": 2.0}, 2.0),
    (initializers.LeCunNormal, {"scale": 1.5}, 1.5 * math.sqrt(1 / 450)),
    (initializers.GlorotNormal, {}, math.sqrt(2 / (450 + 1800))),
    (initializers.HeNormal, {}, math.sqrt(2 / 450)),
    (initializers.HeNormal, {"fan_option": "fan_out"}, math.sqrt(2 / 1800)),
])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_std_and_mean(cls, kwargs, std, dtype):
    a = numpy.empty(SHAPE, dtype)
    cls(rng=numpy.random.default_rng(0), **kwargs)(a)
    assert a.dtype == dtype
    assert abs(a.std() / std - 1) < 0.02
    assert abs(a.mean()) < 0.02 * std


def test_rng_reproducible_and_global_random_used_without_rng():
    a, b = numpy.empty((4, 5), numpy.float32), numpy.empty((4, 5), numpy.float32)
    initializers.Normal(rng=numpy.random.RandomState(3))(a)
    initializers.Normal(rng=numpy.random.RandomState(3))(b)
    numpy.testing.assert_array_equal(a, b)
    numpy.random.seed(1)
    initializers.Normal()(a)
    numpy.random.seed(1)
    initializers.Normal()(b)
    numpy.testing.assert_array_equal(a, b)


def test_dtype_mismatch_and_bad_fan_option():
    with pytest.raises(ValueError, match="HeNormal.*float64"):
        initializers.HeNormal(dtype=numpy.float64)(numpy.empty((3, 3), numpy.float32))
    with pytest.raises(ValueError, match="fan_option"):
        initializers.HeNormal(fan_option="fan_avg")


def test_generate_array_uses_initializer_dtype():
    a = initializers.generate_array(initializers.LeCunNormal(dtype=numpy.float64), (3, 4), numpy)
    assert a.dtype == numpy.float64 and a.shape == (3, 4)
