import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing

DTYPES = [numpy.float32, numpy.float64]
# Plain dtypes, and mixed16: float16 x with float32 parameters and statistics.
DTYPE_CASES = [{"dtype": d} for d in DTYPES] + [{"dtype": numpy.float16, "param_dtype": numpy.float32}]

# x shape, gamma shape, axis
LAYOUTS = [
    {"shape": (5, 3), "gshape": (3,), "axis": None},
    {"shape": (4, 3, 2, 2), "gshape": (3,), "axis": None},
    {"shape": (3, 2, 3, 2), "gshape": (2, 3), "axis": None},
    {"shape": (3, 4, 2), "gshape": (2,), "axis": (0, 1)},
    {"shape": (6, 3, 2), "gshape": (3, 2), "axis": 0},
]


def _reference(x, gamma, beta, mean, var, axes, eps):
    expanded = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    x = x.astype(numpy.float64)
    scale = gamma.astype(numpy.float64).reshape(expanded) / numpy.sqrt(
        var.astype(numpy.float64).reshape(expanded) + eps)
    return (x - mean.reshape(expanded)) * scale + beta.astype(numpy.float64).reshape(expanded)


def _axes(shape, gshape, axis):
    if axis is None:
        return (0,) + tuple(range(len(gshape) + 1, len(shape)))
    return (axis,) if isinstance(axis, int) else axis


@testing.parameterize(*testing.product([LAYOUTS, DTYPE_CASES]))
class TestBatchNormalization(testing.FunctionTestCase):
    eps = 2e-5

    def generate_inputs(self):
        p = getattr(self, "param_dtype", self.dtype)
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1.5, self.gshape).astype(p)
        beta = numpy.random.uniform(-1, 1, self.gshape).astype(p)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.batch_normalization(x, gamma, beta, eps=self.eps, axis=self.axis),

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        axes = _axes(self.shape, self.gshape, self.axis)
        x64 = x.astype(numpy.float64)
        mean = x64.mean(axis=axes)
        var = x64.var(axis=axes)
        return _reference(x, gamma, beta, mean, var, axes, self.eps).astype(self.dtype),


@testing.parameterize(*testing.product([LAYOUTS, DTYPE_CASES]))
class TestFixedBatchNormalization(testing.FunctionTestCase):
    eps = 1e-3

    def generate_inputs(self):
        p = getattr(self, "param_dtype", self.dtype)
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1.5, self.gshape).astype(p)
        beta = numpy.random.uniform(-1, 1, self.gshape).astype(p)
        mean = numpy.random.uniform(-1, 1, self.gshape).astype(p)
        var = numpy.random.uniform(0.5, 1.5, self.gshape).astype(p)
        return x, gamma, beta, mean, var

    def forward(self, inputs, device):
        return F.fixed_batch_normalization(*inputs, eps=self.eps, axis=self.axis),

    def forward_expected(self, inputs):
        x, gamma, beta, mean, var = inputs
        axes = _axes(self.shape, self.gshape, self.axis)
        return _reference(x, gamma, beta, mean.astype(numpy.float64), var, axes,
                          self.eps).astype(self.dtype),


@pytest.mark.parametrize("dtype", DTYPES)
def test_running_statistics_are_updated_in_place(dtype):
    x = numpy.random.RandomState(1).uniform(-1, 1, (4, 3, 5)).astype(dtype)
    gamma = numpy.ones(3, dtype)
    beta = numpy.zeros(3, dtype)
    mean0 = numpy.array([0.5, -0.5, 1.0], dtype)
    var0 = numpy.array([1.0, 2.0, 0.5], dtype)
    running_mean, running_var = mean0.copy(), var0.copy()
    F.batch_normalization(x, gamma, beta, running_mean=running_mean, running_var=running_var,
                          decay=0.7)
    x64 = x.astype(numpy.float64)
    expected_mean = 0.7 * mean0 + 0.3 * x64.mean(axis=(0, 2))
    expected_var = 0.7 * var0 + 0.3 * x64.var(axis=(0, 2), ddof=1)  # unbiased, m = 20
    assert running_mean.dtype == dtype and running_var.dtype == dtype
    testing.assert_allclose(running_mean, expected_mean, **testing.tolerance(dtype))
    testing.assert_allclose(running_var, expected_var, **testing.tolerance(dtype))


def test_gradient_penalty_through_batch_normalization():
    # d/dx of ||d(sum(w * bn(x)))/dx||^2 needs the second derivative; compare with finite differences.
    rng = numpy.random.RandomState(2)
    x0 = rng.uniform(-1, 1, (4, 3))
    w = rng.uniform(-1, 1, (4, 3))
    gamma = numpy.array([0.8, 1.2, 1.0])
    beta = numpy.zeros(3)

    def penalty(x_array, keep_graph):
        x = kusari.Variable(x_array)
        y = F.sum(F.batch_normalization(x, gamma, beta) * w)
        gx, = kusari.grad([y], [x], enable_double_backprop=keep_graph)
        return x, F.sum(gx * gx)

    x, p = penalty(x0.copy(), True)
    p.backward()
    direction = rng.standard_normal(x0.shape)
    h = 1e-5
    numeric = (penalty(x0 + h * direction, False)[1].array
               - penalty(x0 - h * direction, False)[1].array) / (2 * h)
    testing.assert_allclose(numeric, (x.grad * direction).sum(), atol=1e-6, rtol=1e-5)


def test_single_sample_warns():
    x = numpy.ones((1, 3), numpy.float32)
    with pytest.warns(UserWarning, match="batch_normalization: every reduced axis of x"):
        F.batch_normalization(x, numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="batch_normalization: x must be a floating-point array"):
        F.batch_normalization(numpy.ones((2, 3), numpy.int32), numpy.ones(3, numpy.float32),
                              numpy.zeros(3, numpy.float32))


def test_mixed_parameter_dtypes_rejected():
    # x may differ from the parameters (tests/core/functions/test_mixed_dtypes.py), gamma and beta not
    with pytest.raises(TypeError, match=r"batch_normalization: dtypes must match \(gamma.dtype=float64, "
                                        r"beta.dtype=float32"):
        F.batch_normalization(numpy.ones((2, 3)), numpy.ones(3), numpy.zeros(3, numpy.float32))
    with pytest.raises(TypeError, match=r"fixed_batch_normalization: dtypes must match \(gamma.dtype=float32, "
                                        r"mean.dtype=float16"):
        F.fixed_batch_normalization(numpy.ones((2, 3)), *numpy.ones((2, 3), numpy.float32),
                                    *numpy.ones((2, 3), numpy.float16))


@pytest.mark.parametrize("fixed", [False, True])
def test_mixed16_computes_in_float32_and_returns_float16(fixed):
    rng = numpy.random.RandomState(0)
    x16 = rng.uniform(-3, 3, (8, 3, 2)).astype(numpy.float16)
    gamma, beta = rng.uniform(0.5, 2, 3).astype(numpy.float32), rng.uniform(-1, 1, 3).astype(numpy.float32)
    mean, var = rng.uniform(-1, 1, 3).astype(numpy.float32), rng.uniform(0.5, 2, 3).astype(numpy.float32)
    x = kusari.Variable(x16)
    if fixed:
        y = F.fixed_batch_normalization(x, gamma, beta, mean, var)
        want = F.fixed_batch_normalization(x16.astype(numpy.float32), gamma, beta, mean, var).array
    else:
        running = (numpy.zeros(3, numpy.float32), numpy.ones(3, numpy.float32))
        y = F.batch_normalization(x, gamma, beta, running_mean=running[0], running_var=running[1])
        want = F.batch_normalization(x16.astype(numpy.float32), gamma, beta).array
        assert running[0].dtype == numpy.float32 and numpy.abs(running[0]).max() > 0  # updated in float32
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, want.astype(numpy.float16))
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert x.grad.dtype == numpy.float16


def test_gamma_beta_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"batch_normalization: gamma.shape=\(3,\) does not match "
                                         r"beta.shape=\(4,\)"):
        F.batch_normalization(numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.float32),
                              numpy.zeros(4, numpy.float32))


def test_channel_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"batch_normalization: x.shape=\(2, 5\) reduced over axes "
                                         r"\(0,\) leaves \(5,\), which does not match gamma.shape=\(3,\)"):
        F.batch_normalization(numpy.ones((2, 5), numpy.float32), numpy.ones(3, numpy.float32),
                              numpy.zeros(3, numpy.float32))


def test_running_statistics_must_come_together():
    with pytest.raises(ValueError, match="batch_normalization: running_mean and running_var must be "
                                         "given together"):
        F.batch_normalization(numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.float32),
                              numpy.zeros(3, numpy.float32), running_mean=numpy.zeros(3, numpy.float32))


def test_running_statistics_shape_checked():
    with pytest.raises(ValueError, match=r"batch_normalization: running_var.shape=\(4,\) does not "
                                         r"match gamma.shape=\(3,\)"):
        F.batch_normalization(numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.float32),
                              numpy.zeros(3, numpy.float32), running_mean=numpy.zeros(3, numpy.float32),
                              running_var=numpy.ones(4, numpy.float32))


def test_fixed_statistics_shape_checked():
    f32 = numpy.float32
    with pytest.raises(ValueError, match=r"fixed_batch_normalization: mean.shape=\(2,\) and "
                                         r"var.shape=\(3,\) must both equal gamma.shape=\(3,\)"):
        F.fixed_batch_normalization(numpy.ones((2, 3), f32), numpy.ones(3, f32), numpy.zeros(3, f32),
                                    numpy.zeros(2, f32), numpy.ones(3, f32))


def test_fixed_statistics_dtype_checked():
    f32 = numpy.float32
    with pytest.raises(TypeError, match=r"fixed_batch_normalization: dtypes must match \(gamma.dtype=float32, "
                                        r"mean.dtype=float64"):
        F.fixed_batch_normalization(numpy.ones((2, 3), f32), numpy.ones(3, f32), numpy.zeros(3, f32),
                                    numpy.zeros(3), numpy.ones(3, f32))


@pytest.mark.filterwarnings("error")  # no "Mean of empty slice" or invalid-value warning either
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(0, 3), (0, 3, 4, 2)])
def test_empty_batch_leaves_running_statistics_unchanged(dtype, shape):
    rng = numpy.random.RandomState(3)
    mean0, var0 = rng.uniform(-1, 1, 3).astype(dtype), rng.uniform(0.5, 2, 3).astype(dtype)
    running_mean, running_var = mean0.copy(), var0.copy()
    x = kusari.Variable(numpy.zeros(shape, dtype))
    gamma = kusari.Variable(rng.uniform(0.5, 1.5, 3).astype(dtype))
    beta = kusari.Variable(rng.uniform(-1, 1, 3).astype(dtype))
    y = F.batch_normalization(x, gamma, beta, running_mean=running_mean, running_var=running_var)
    assert y.shape == shape and y.dtype == dtype
    numpy.testing.assert_array_equal(running_mean, mean0)
    numpy.testing.assert_array_equal(running_var, var0)
    F.sum(y).backward()
    assert x.grad.shape == shape
    numpy.testing.assert_array_equal(gamma.grad, numpy.zeros(3, dtype))
    numpy.testing.assert_array_equal(beta.grad, numpy.zeros(3, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_of_one_keeps_running_statistics_finite(dtype):
    # m = 1 value per channel: the variance 0 is not scaled by m / (m - 1) = 1 / 0.
    x = numpy.array([[0.5, -1.0, 2.0]], dtype)
    running_mean, running_var = numpy.zeros(3, dtype), numpy.ones(3, dtype)
    with pytest.warns(UserWarning, match="every reduced axis"):
        F.batch_normalization(x, numpy.ones(3, dtype), numpy.zeros(3, dtype),
                              running_mean=running_mean, running_var=running_var, decay=0.9)
    testing.assert_allclose(running_mean, 0.1 * x[0].astype(numpy.float64), **testing.tolerance(dtype))
    testing.assert_allclose(running_var, numpy.full(3, 0.9), **testing.tolerance(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_of_one_with_spatial_axes_counts_every_position(dtype):
    # N = 1 but m = N * H * W = 6 values per channel, so the correction is 6 / 5.
    x = numpy.random.RandomState(5).uniform(-1, 1, (1, 3, 2, 3)).astype(dtype)
    running_mean, running_var = numpy.zeros(3, dtype), numpy.ones(3, dtype)
    F.batch_normalization(x, numpy.ones(3, dtype), numpy.zeros(3, dtype),
                          running_mean=running_mean, running_var=running_var, decay=0.9)
    x64 = x.astype(numpy.float64)
    testing.assert_allclose(running_mean, 0.1 * x64.mean(axis=(0, 2, 3)), **testing.tolerance(dtype))
    testing.assert_allclose(running_var, 0.9 + 0.1 * x64.var(axis=(0, 2, 3), ddof=1),
                            **testing.tolerance(dtype))
