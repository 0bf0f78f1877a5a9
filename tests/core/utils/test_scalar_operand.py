"""utils.scalar_operand: a cached 0-d operand that gives the bits of NumPy's own scalar handling."""
import numpy
import pytest

from kusari import utils


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize("value", [0, 0.01, -1.5e-3, 300.0])
def test_same_bits_as_a_python_scalar(dtype, value):
    x = numpy.random.default_rng(0).standard_normal(64).astype(dtype)
    operand = utils.scalar_operand(value, x)
    assert operand.dtype == dtype and operand.shape == ()
    for op in (numpy.multiply, numpy.maximum, numpy.greater, numpy.subtract):
        got, want = op(x, operand), op(x, value)
        assert got.dtype == want.dtype
        numpy.testing.assert_array_equal(got, want)


def test_cached_read_only_and_bounded():
    x = numpy.ones(3, numpy.float32)
    a = utils.scalar_operand(0.5, x)
    assert utils.scalar_operand(0.5, x) is a
    assert utils.scalar_operand(0.5, x.astype(numpy.float64)) is not a
    with pytest.raises(ValueError):
        a[...] = 2
    for i in range(1000):                  # a value that changes every call does not grow the cache
        utils.scalar_operand(i * 1e-6, x)
    assert len(utils._SCALARS) <= 256


def test_other_arrays_get_the_value_itself():
    class NotNumPy:
        pass
    assert utils.scalar_operand(0.25, NotNumPy()) == 0.25
