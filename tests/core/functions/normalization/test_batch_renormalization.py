import warnings

import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing

DTYPES = [numpy.float32, numpy.float64]
EPS = 2e-5


def _reference(x, gamma, beta, running_mean, running_var, rmax, dmax, axes):
    """The paper's Algorithm 1 in float64, with Chainer's eps placement."""
    expanded = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    x = x.astype(numpy.float64)
    mean = x.mean(axis=axes)
    std = numpy.sqrt(x.var(axis=axes) + EPS)
    running_sigma = numpy.sqrt(running_var.astype(numpy.float64) + EPS)
    r = numpy.clip(std / running_sigma, 1 / rmax, rmax)
    d = numpy.clip((mean - running_mean) / running_sigma, -dmax, dmax)
    x_hat = (x - mean.reshape(expanded)) / std.reshape(expanded)

    def e(a):
        return a.astype(numpy.float64).reshape(expanded)
    return e(gamma) * (x_hat * e(r) + e(d)) + e(beta), r, d


@testing.parameterize(*testing.product({
    "shape": [(6, 2), (3, 2, 4)],
    "dtype": DTYPES,
}))
class TestBatchRenormalization(testing.FunctionTestCase):
    # Running statistics far from the batch's, so r and d sit at their clip bounds: there they are
    # locally constant, which is what backward assumes (it treats them as constants).
    rmax = 1.5
    dmax = 0.5

    def setup(self):
        self.running_mean = numpy.array([-3.0, 3.0], self.dtype)
        self.running_var = numpy.array([0.01, 9.0], self.dtype)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1.5, (2,)).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, (2,)).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.batch_renormalization(x, gamma, beta, self.rmax, self.dmax, eps=EPS,
                                       running_mean=self.running_mean.copy(),
                                       running_var=self.running_var.copy()),

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        axes = (0,) + tuple(range(2, x.ndim))
        y, r, d = _reference(x, gamma, beta, self.running_mean, self.running_var, self.rmax,
                             self.dmax, axes)
        assert numpy.allclose(r, [self.rmax, 1 / self.rmax]) and numpy.allclose(d, [self.dmax, -self.dmax])
        return y.astype(self.dtype),


@pytest.mark.parametrize("dtype", DTYPES)
def test_unclipped_forward_and_gradient(dtype):
    rng = numpy.random.RandomState(3)
    x_data = rng.uniform(-1, 1, (8, 3)).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, 3).astype(dtype)
    beta = rng.uniform(-1, 1, 3).astype(dtype)
    running_mean = numpy.array([0.1, -0.1, 0.0], dtype)
    running_var = numpy.array([0.3, 0.4, 0.35], dtype)
    rmax, dmax = 3.0, 1.0
    x = kusari.Variable(x_data)
    y = F.batch_renormalization(x, gamma, beta, rmax, dmax, running_mean=running_mean,
                                running_var=running_var)
    expected, r, d = _reference(x_data, gamma, beta, running_mean, running_var, rmax, dmax, (0,))
    assert ((1 / rmax < r) & (r < rmax)).all() and (numpy.abs(d) < dmax).all()
    assert y.dtype == dtype
    testing.assert_allclose(y.array, expected, **testing.tolerance(dtype))

    # r and d are constants in backward: gx = r * gamma / std * (gy - mean(gy) - x_hat * mean(gy * x_hat)).
    gy = rng.uniform(-1, 1, x_data.shape)
    y.grad = gy.astype(dtype)
    y.backward()
    x64 = x_data.astype(numpy.float64)
    std = numpy.sqrt(x64.var(axis=0) + EPS)
    x_hat = (x64 - x64.mean(axis=0)) / std
    gx = r * gamma / std * (gy - gy.mean(axis=0) - x_hat * (gy * x_hat).mean(axis=0))
    testing.assert_allclose(x.grad, gx, **testing.tolerance(dtype, "backward"))


@pytest.mark.parametrize("update", [False, True])
def test_update_statistics(update):
    rng = numpy.random.RandomState(4)
    x = rng.uniform(-1, 1, (5, 2, 3))
    gamma, beta = numpy.ones(2), numpy.zeros(2)
    mean0, var0 = numpy.array([0.1, 0.2]), numpy.array([0.5, 0.6])
    running_mean, running_var = mean0.copy(), var0.copy()
    y = F.batch_renormalization(x, gamma, beta, 2.0, 1.0, running_mean=running_mean,
                                running_var=running_var, decay=0.8, update_statistics=update)
    # r and d come from the statistics before the update.
    testing.assert_allclose(y.array, _reference(x, gamma, beta, mean0, var0, 2.0, 1.0, (0, 2))[0])
    if update:
        expected_mean = 0.8 * mean0 + 0.2 * x.mean(axis=(0, 2))
        expected_var = 0.8 * var0 + 0.2 * x.var(axis=(0, 2), ddof=1)
    else:
        expected_mean, expected_var = mean0, var0
    testing.assert_allclose(running_mean, expected_mean)
    testing.assert_allclose(running_var, expected_var)


def test_running_statistics_required():
    f32 = numpy.float32
    with pytest.raises(TypeError, match="batch_renormalization: running_mean and running_var are required"):
        F.batch_renormalization(numpy.ones((2, 3), f32), numpy.ones(3, f32), numpy.zeros(3, f32), 2.0, 1.0)


def test_running_statistics_shape_checked():
    f32 = numpy.float32
    with pytest.raises(ValueError, match=r"batch_renormalization: running_mean.shape=\(2,\) does not "
                                         r"match gamma.shape=\(3,\)"):
        F.batch_renormalization(numpy.ones((2, 3), f32), numpy.ones(3, f32), numpy.zeros(3, f32), 2.0,
                                1.0, running_mean=numpy.zeros(2, f32), running_var=numpy.ones(3, f32))


def test_channel_shape_mismatch_rejected():
    f32 = numpy.float32
    with pytest.raises(ValueError, match=r"batch_renormalization: x.shape=\(2, 4\) reduced over axes"):
        F.batch_renormalization(numpy.ones((2, 4), f32), numpy.ones(3, f32), numpy.zeros(3, f32), 2.0,
                                1.0, running_mean=numpy.zeros(3, f32), running_var=numpy.ones(3, f32))


def test_fixed_batch_renormalization_is_deprecated_fixed_batch_normalization():
    rng = numpy.random.RandomState(5)
    x = rng.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    gamma, beta, mean = (rng.uniform(-1, 1, 3).astype(numpy.float32) for _ in range(3))
    var = rng.uniform(0.5, 1.5, 3).astype(numpy.float32)
    with pytest.warns(DeprecationWarning, match="fixed_batch_renormalization is deprecated"):
        y = F.fixed_batch_renormalization(x, gamma, beta, mean, var, eps=1e-3)
    expected = gamma * (x.astype(numpy.float64) - mean) / numpy.sqrt(var.astype(numpy.float64) + 1e-3) + beta
    assert y.dtype == numpy.float32
    testing.assert_allclose(y.array, expected)


@pytest.mark.filterwarnings("ignore:fixed_batch_renormalization is deprecated:DeprecationWarning")
@testing.parameterize(*testing.product({"dtype": DTYPES}))
class TestFixedBatchRenormalization(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (4, 3, 2)).astype(self.dtype)
        gamma, beta, mean = (numpy.random.uniform(-1, 1, 3).astype(self.dtype) for _ in range(3))
        var = numpy.random.uniform(0.5, 1.5, 3).astype(self.dtype)
        return x, gamma, beta, mean, var

    def forward(self, inputs, device):
        return F.fixed_batch_renormalization(*inputs, eps=1e-3),

    def forward_expected(self, inputs):
        x, gamma, beta, mean, var = (a.astype(numpy.float64) for a in inputs)
        y = gamma[:, None] * (x - mean[:, None]) / numpy.sqrt(var[:, None] + 1e-3) + beta[:, None]
        return y.astype(self.dtype),


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(0, 2), (0, 2, 3)])
def test_empty_batch_leaves_running_statistics_unchanged(dtype, shape):
    mean0, var0 = numpy.array([0.1, -0.2], dtype), numpy.array([0.5, 1.5], dtype)
    running_mean, running_var = mean0.copy(), var0.copy()
    x = kusari.Variable(numpy.zeros(shape, dtype))
    gamma = kusari.Variable(numpy.array([1.5, 0.5], dtype))
    beta = kusari.Variable(numpy.array([0.3, -0.3], dtype))
    y = F.batch_renormalization(x, gamma, beta, 2.0, 1.0, running_mean=running_mean,
                                running_var=running_var, update_statistics=True)
    assert y.shape == shape and y.dtype == dtype
    numpy.testing.assert_array_equal(running_mean, mean0)
    numpy.testing.assert_array_equal(running_var, var0)
    F.sum(y).backward()
    assert x.grad.shape == shape
    numpy.testing.assert_array_equal(gamma.grad, numpy.zeros(2, dtype))
    numpy.testing.assert_array_equal(beta.grad, numpy.zeros(2, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 2), (1, 2, 3)])
def test_batch_of_one_keeps_running_statistics_finite(dtype, shape):
    x = numpy.random.RandomState(6).uniform(-1, 1, shape).astype(dtype)
    running_mean, running_var = numpy.zeros(2, dtype), numpy.ones(2, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the single-sample warning, for shape (1, 2)
        F.batch_renormalization(x, numpy.ones(2, dtype), numpy.zeros(2, dtype), 2.0, 1.0,
                                running_mean=running_mean, running_var=running_var, decay=0.9,
                                update_statistics=True)
    axes = (0,) + tuple(range(2, x.ndim))
    m = x.size // 2
    x64 = x.astype(numpy.float64)
    var = x64.var(axis=axes, ddof=1) if m > 1 else numpy.zeros(2)
    testing.assert_allclose(running_mean, 0.1 * x64.mean(axis=axes), **testing.tolerance(dtype))
    testing.assert_allclose(running_var, 0.9 + 0.1 * var, **testing.tolerance(dtype))
