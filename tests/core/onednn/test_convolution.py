"""oneDNN convolutions against the NumPy kernels: convolution_nd / deconvolution_nd forward, gradients and
double backprop, over dimensions, stride, padding, dilation, groups, bias and cover_all."""
import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import gradient_check, onednn
from kusari.onednn import convolution as kernels

pytestmark = pytest.mark.skipif(not onednn.available(), reason="oneDNN is not installed (kusari[onednn])")

CASES = [
    {"in_size": (9,), "ksize": (3,), "stride": 2, "pad": 1, "dilate": 1, "groups": 1},
    {"in_size": (8, 7), "ksize": (3, 3), "stride": 1, "pad": 1, "dilate": 1, "groups": 1},
    {"in_size": (9, 8), "ksize": (3, 2), "stride": (2, 1), "pad": (1, 0), "dilate": (2, 1), "groups": 2},
    {"in_size": (7, 7), "ksize": (3, 3), "stride": 2, "pad": 1, "dilate": 1, "groups": 4},  # depthwise
    {"in_size": (6, 6), "ksize": (1, 1), "stride": 2, "pad": 0, "dilate": 1, "groups": 1},
    {"in_size": (10, 11), "ksize": (1, 1), "stride": 1, "pad": 0, "dilate": 1, "groups": 1},  # plain layout
    {"in_size": (120,), "ksize": (1,), "stride": 1, "pad": 0, "dilate": 1, "groups": 2},
    {"in_size": (5, 4, 6), "ksize": (2, 3, 3), "stride": 1, "pad": (0, 1, 1), "dilate": 1, "groups": 1},
]
CHANNELS = (4, 8)  # C_in, C_out: both divisible by every groups above


def _inputs(case, nobias, batch=2, rng=None):
    rng = numpy.random.default_rng(0) if rng is None else rng
    c, o = CHANNELS
    x = rng.uniform(-1, 1, (batch, c) + case["in_size"]).astype(numpy.float32)
    W = rng.uniform(-1, 1, (o, c // case["groups"]) + case["ksize"]).astype(numpy.float32)
    b = None if nobias else rng.uniform(-1, 1, o).astype(numpy.float32)
    return x, W, b


def _conv(case, cover_all=False):
    def f(x, W, b=None):
        return F.convolution_nd(x, W, b, case["stride"], case["pad"], cover_all, case["dilate"], case["groups"])
    return f


def _forward_backward(f, arrays, gy_seed=1):
    """y, and the gradient of sum(y * gy) for every input (a random gy of y's shape)."""
    variables = [None if a is None else kusari.Variable(a.copy()) for a in arrays]
    y = f(*variables)
    y.grad = numpy.random.default_rng(gy_seed).uniform(-1, 1, y.shape).astype(numpy.float32)
    y.backward()
    return [y] + [None if v is None else v.grad for v in variables]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("nobias", [False, True])
@pytest.mark.parametrize("cover_all", [False, True])
def test_convolution_matches_numpy(case, nobias, cover_all, compare, count_calls):
    calls = [count_calls(kernels, name) for name in ("forward", "backward_data", "backward_weights")]
    arrays = _inputs(case, nobias)
    fast, reference = compare.run_both(lambda: _forward_backward(_conv(case, cover_all), arrays))
    compare.assert_close(fast, reference)
    assert [len(c) for c in calls] == [1, 1, 1]  # each gradient came from oneDNN


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("nobias", [False, True])
def test_deconvolution_matches_numpy(case, nobias, compare, count_calls):
    calls = [count_calls(kernels, name) for name in ("forward", "backward_data", "backward_weights")]
    rng = numpy.random.default_rng(2)
    c, o = CHANNELS
    g = case["groups"]
    x = rng.uniform(-1, 1, (2, c) + case["in_size"]).astype(numpy.float32)
    W = rng.uniform(-1, 1, (c, o // g) + case["ksize"]).astype(numpy.float32)
    b = None if nobias else rng.uniform(-1, 1, o).astype(numpy.float32)

    def f(x, W, b=None):
        return F.deconvolution_nd(x, W, b, case["stride"], case["pad"], dilate=case["dilate"], groups=g)
    fast, reference = compare.run_both(lambda: _forward_backward(f, (x, W, b)))
    compare.assert_close(fast, reference)
    # forward and the W gradient are backward-data and backward-weights; the x gradient is a convolution
    assert [len(c) for c in calls] == [1, 1, 1]


def test_deconvolution_with_outsize(compare):
    """An outsize one larger than the default: the convolution behind the x gradient needs cover_all."""
    rng = numpy.random.default_rng(3)
    x = rng.uniform(-1, 1, (2, 4, 4, 5)).astype(numpy.float32)
    W = rng.uniform(-1, 1, (4, 3, 3, 3)).astype(numpy.float32)

    def f(x, W):
        return F.deconvolution_2d(x, W, None, 2, 1, outsize=(8, 10))
    fast, reference = compare.run_both(lambda: _forward_backward(f, (x, W)))
    assert fast[0].shape == (2, 3, 8, 10)
    compare.assert_close(fast, reference)


@pytest.mark.parametrize("case", CASES[1:4])
def test_double_backprop_matches_numpy(case, compare):
    """The gradient's own gradient (a gradient penalty) runs through the same oneDNN-backed ops."""
    arrays = _inputs(case, nobias=False, rng=numpy.random.default_rng(4))

    def compute():
        x, W, b = (kusari.Variable(a.copy()) for a in arrays)
        y = _conv(case)(x, W, b)
        gx, gW = kusari.grad([F.sum(y * y)], [x, W], enable_double_backprop=True)
        F.sum(gx * gx + F.sum(gW * gW)).backward()
        return gx, gW, x.grad, W.grad, b.grad
    fast, reference = compare.run_both(compute)
    compare.assert_close(fast, reference, rtol=2e-4)


@pytest.mark.parametrize("case", CASES[1:4])
def test_gradients_numerically(case):
    """Gradient checks with every op on oneDNN (float32, so a coarse step and tolerance)."""
    rng = numpy.random.default_rng(5)
    x, W, b = _inputs(case, nobias=False, batch=1, rng=rng)
    y_shape = _conv(case)(x, W, b).shape
    gy = rng.uniform(-1, 1, y_shape).astype(numpy.float32)
    ggs = tuple(rng.uniform(-1, 1, a.shape).astype(numpy.float32) for a in (x, W, b))
    with kusari.using_config("use_onednn", "always"):
        gradient_check.check_backward(_conv(case), (x, W, b), gy, eps=1e-2, atol=5e-3, rtol=5e-3)
        gradient_check.check_double_backward(_conv(case), (x, W, b), gy, ggs, eps=1e-2, atol=5e-3, rtol=5e-3)


def test_auto_leaves_strided_pointwise_convolutions_to_numpy(count_calls):
    calls = count_calls(kernels, "forward")
    x, W, b = _inputs(CASES[4], nobias=False)
    with kusari.using_config("use_onednn", "auto"):
        F.convolution_2d(x, W, b, stride=2)
        assert calls == []
        F.convolution_2d(x, W, b, stride=1)
        assert calls == ["forward"]


def test_float64_and_never_stay_on_numpy(count_calls):
    calls = count_calls(kernels, "forward")
    x, W, b = _inputs(CASES[1], nobias=False)
    with kusari.using_config("use_onednn", "always"):
        F.convolution_2d(x.astype(numpy.float64), W.astype(numpy.float64), b.astype(numpy.float64), pad=1)
    with kusari.using_config("use_onednn", "never"):
        F.convolution_2d(x, W, b, pad=1)
    assert calls == []


@pytest.mark.parametrize("groups", [1, 2])
def test_rejected_shape_falls_back_to_numpy(groups, compare, count_calls):
    """oneDNN has no convolution over four spatial axes; NumPy computes it instead."""
    calls = count_calls(kernels, "forward")
    rng = numpy.random.default_rng(6)
    x = rng.uniform(-1, 1, (1, 2, 3, 3, 2, 3)).astype(numpy.float32)
    W = rng.uniform(-1, 1, (2, 2 // groups, 2, 1, 2, 2)).astype(numpy.float32)
    f = lambda x, W: F.convolution_nd(x, W, pad=1, groups=groups)  # noqa: E731
    fast, reference = compare.run_both(lambda: _forward_backward(f, (x, W)))
    compare.assert_close(fast, reference)
    assert calls == []
