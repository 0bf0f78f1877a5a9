import numpy
import pytest

from kusari import initializers


@pytest.mark.parametrize("shape, mode", [((3, 7), "auto"), ((3, 7), "projection"),
                                         ((8, 2, 2), "embedding"), ((5, 5), "basis"),
                                         ((6, 2, 3), "auto")])
def test_orthonormal(shape, mode):
    a = numpy.empty(shape, numpy.float64)
    initializers.Orthogonal(scale=2.0, mode=mode, rng=numpy.random.RandomState(0))(a)
    m = a.reshape(shape[0], -1) / 2.0
    if m.shape[0] <= m.shape[1]:
        numpy.testing.assert_allclose(m @ m.T, numpy.eye(m.shape[0]), atol=1e-12)
    else:
        numpy.testing.assert_allclose(m.T @ m, numpy.eye(m.shape[1]), atol=1e-12)


def test_default_scale_and_dtype():
    a = numpy.empty((4, 4), numpy.float32)
    initializers.Orthogonal()(a)
    assert a.dtype == numpy.float32
    numpy.testing.assert_allclose(a @ a.T, 1.1 ** 2 * numpy.eye(4), atol=1e-5)


@pytest.mark.parametrize("shape, mode", [((7, 3), "projection"), ((3, 7), "embedding"),
                                         ((3, 4), "basis")])
def test_mode_shape_mismatch(shape, mode):
    with pytest.raises(ValueError, match=f"Orthogonal.*{mode}.*{shape}"):
        initializers.Orthogonal(mode=mode)(numpy.empty(shape, numpy.float32))


def test_bad_mode():
    with pytest.raises(ValueError, match="mode"):
        initializers.Orthogonal(mode="rows")
