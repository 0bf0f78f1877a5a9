import numpy
import pytest

from kusari import initializers


def test_identity_scaled():
    a = numpy.full((3, 3), 7.0, numpy.float32)
    initializers.Identity(scale=0.5)(a)
    numpy.testing.assert_array_equal(a, 0.5 * numpy.eye(3))
    assert a.dtype == numpy.float32


@pytest.mark.parametrize("shape", [(2, 3), (3,), (2, 2, 2)])
def test_identity_rejects_non_square(shape):
    with pytest.raises(ValueError, match=r"Identity.*\(" + str(shape[0])):
        initializers.Identity()(numpy.empty(shape, numpy.float32))
