import numpy
import pytest
import scipy.linalg

import kusari
import kusari.functions as F
from kusari import testing

DTYPES = [numpy.float32, numpy.float64]
EPS = 2e-5


def _groups(x, groups):
    """x (N, C, ...) -> (groups, C // groups, N * spatial) in float64."""
    x = numpy.moveaxis(x.astype(numpy.float64), 1, 0)
    return x.reshape(groups, x.shape[0] // groups, -1)


def _ungroup(y, shape):
    return numpy.moveaxis(y.reshape((shape[1], shape[0]) + shape[2:]), 0, 1)


@testing.parameterize(*testing.product([
    [{"shape": (12, 4), "groups": 2}, {"shape": (5, 6, 2, 2), "groups": 2},
     {"shape": (8, 3, 3), "groups": 1}],
    [{"dtype": d} for d in DTYPES],
]))
class TestDecorrelatedBatchNormalization(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.decorrelated_batch_normalization(inputs[0], groups=self.groups, eps=EPS),

    def forward_expected(self, inputs):
        x, = inputs
        xg = _groups(x, self.groups)
        xc = xg - xg.mean(axis=2, keepdims=True)
        y = numpy.empty_like(xc)
        for k in range(self.groups):
            cov = xc[k] @ xc[k].T / xc.shape[2] + EPS * numpy.eye(xc.shape[1])
            y[k] = scipy.linalg.fractional_matrix_power(cov, -0.5).real @ xc[k]
        return _ungroup(y, x.shape).astype(self.dtype),


@testing.parameterize(*testing.product([
    [{"shape": (4, 4), "groups": 2}, {"shape": (3, 6, 2), "groups": 3}],
    [{"dtype": d} for d in DTYPES],
]))
class TestFixedDecorrelatedBatchNormalization(testing.FunctionTestCase):
    def generate_inputs(self):
        c = self.shape[1] // self.groups
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        mean = numpy.random.uniform(-1, 1, (self.groups, c)).astype(self.dtype)
        projection = numpy.random.uniform(-1, 1, (self.groups, c, c)).astype(self.dtype)
        return x, mean, projection

    def forward(self, inputs, device):
        x, mean, projection = inputs
        return F.fixed_decorrelated_batch_normalization(x, mean, projection, groups=self.groups),

    def forward_expected(self, inputs):
        x, mean, projection = inputs
        xc = _groups(x, self.groups) - mean[:, :, None]
        y = numpy.einsum("gij,gjm->gim", projection.astype(numpy.float64), xc)
        return _ungroup(y, x.shape).astype(self.dtype),


def test_output_is_whitened():
    x = numpy.random.RandomState(0).standard_normal((200, 4, 2)) @ numpy.array([[1.0, 0.5], [0.0, 1.0]])
    y = F.decorrelated_batch_normalization(x, groups=2).array
    yg = _groups(y, 2)
    for k in range(2):
        testing.assert_allclose(yg[k] @ yg[k].T / yg.shape[2], numpy.eye(2), atol=1e-4, rtol=0)


def test_running_statistics_are_updated_in_place():
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, (10, 4, 3)).astype(numpy.float32)
    running_mean = numpy.zeros((2, 2), numpy.float32)
    running_projection = numpy.broadcast_to(numpy.eye(2, dtype=numpy.float32), (2, 2, 2)).copy()
    F.decorrelated_batch_normalization(x, groups=2, running_mean=running_mean,
                                       running_projection=running_projection, decay=0.6)
    xg = _groups(x, 2)
    m = xg.shape[2]
    expected_mean = 0.4 * xg.mean(axis=2)
    xc = xg - xg.mean(axis=2, keepdims=True)
    whiten = numpy.stack([scipy.linalg.fractional_matrix_power(
        xc[k] @ xc[k].T / m + EPS * numpy.eye(2), -0.5).real for k in range(2)])
    expected_projection = 0.6 * numpy.eye(2) + 0.4 * m / (m - 1) * whiten
    assert running_mean.dtype == numpy.float32 and running_projection.dtype == numpy.float32
    testing.assert_allclose(running_mean, expected_mean)
    testing.assert_allclose(running_projection, expected_projection, atol=1e-4, rtol=1e-4)


def test_repeated_eigenvalues_have_finite_gradients():
    # Channels 0 and 1 are uncorrelated with equal variance: the covariance has a double eigenvalue,
    # where formulas dividing by eigenvalue gaps break down.
    x = numpy.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]])
    v = kusari.Variable(x)
    y = F.decorrelated_batch_normalization(v, groups=1)
    F.sum(y * numpy.arange(8.0).reshape(4, 2)).backward()
    assert numpy.isfinite(v.grad).all()


def test_channels_not_divisible_rejected():
    with pytest.raises(ValueError, match=r"decorrelated_batch_normalization: x.shape\[1\]=6 is not "
                                         r"divisible by groups=4"):
        F.decorrelated_batch_normalization(numpy.ones((3, 6), numpy.float32), groups=4)


def test_bad_groups_rejected():
    with pytest.raises(ValueError, match=r"decorrelated_batch_normalization: groups must be a positive "
                                         r"int, got 0"):
        F.decorrelated_batch_normalization(numpy.ones((3, 6), numpy.float32), groups=0)


def test_one_dimensional_input_rejected():
    with pytest.raises(ValueError, match=r"decorrelated_batch_normalization: x must have at least 2 "
                                         r"dimensions"):
        F.decorrelated_batch_normalization(numpy.ones(6, numpy.float32), groups=1)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="decorrelated_batch_normalization: x must be a floating-point"):
        F.decorrelated_batch_normalization(numpy.ones((3, 4), numpy.int64), groups=2)


def test_running_statistics_shape_checked():
    with pytest.raises(ValueError, match=r"decorrelated_batch_normalization: running_projection.shape="
                                         r"\(2, 2\) does not match \(2, 2, 2\)"):
        F.decorrelated_batch_normalization(numpy.ones((3, 4), numpy.float32), groups=2,
                                           running_projection=numpy.eye(2, dtype=numpy.float32))


def test_fixed_statistics_shape_checked():
    f32 = numpy.float32
    with pytest.raises(ValueError, match=r"fixed_decorrelated_batch_normalization: mean.shape=\(2,\) and "
                                         r"projection.shape=\(2, 2, 2\) must be \(2, 2\) and \(2, 2, 2\)"):
        F.fixed_decorrelated_batch_normalization(numpy.ones((3, 4), f32), numpy.zeros(2, f32),
                                                 numpy.ones((2, 2, 2), f32), groups=2)


def test_fixed_statistics_dtype_checked():
    f32 = numpy.float32
    with pytest.raises(TypeError, match=r"fixed_decorrelated_batch_normalization: dtypes must match"):
        F.fixed_decorrelated_batch_normalization(numpy.ones((3, 4), f32), numpy.zeros((2, 2)),
                                                 numpy.ones((2, 2, 2), f32), groups=2)


def _running(dtype):
    rng = numpy.random.RandomState(7)
    mean = rng.uniform(-1, 1, (2, 2)).astype(dtype)
    projection = numpy.eye(2, dtype=dtype) + rng.uniform(-0.1, 0.1, (2, 2, 2)).astype(dtype)
    return mean, projection


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(0, 4), (0, 4, 3)])
def test_empty_batch_leaves_running_statistics_unchanged(dtype, shape):
    mean0, projection0 = _running(dtype)
    running_mean, running_projection = mean0.copy(), projection0.copy()
    x = kusari.Variable(numpy.zeros(shape, dtype))
    y = F.decorrelated_batch_normalization(x, groups=2, running_mean=running_mean,
                                           running_projection=running_projection)
    assert y.shape == shape and y.dtype == dtype
    numpy.testing.assert_array_equal(running_mean, mean0)
    numpy.testing.assert_array_equal(running_projection, projection0)
    F.sum(y).backward()
    assert x.grad.shape == shape and x.grad.dtype == dtype


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 4), (1, 4, 3)])
def test_batch_of_one_keeps_running_statistics_finite(dtype, shape):
    running_mean, running_projection = _running(dtype)
    x = numpy.random.RandomState(8).uniform(-1, 1, shape).astype(dtype)
    F.decorrelated_batch_normalization(x, groups=2, running_mean=running_mean,
                                       running_projection=running_projection)
    assert numpy.isfinite(running_mean).all() and numpy.isfinite(running_projection).all()
