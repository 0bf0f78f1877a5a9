"""oneDNN max and average pooling against the NumPy kernels: forward, gradient, double backprop, ties,
and the cases that stay on NumPy."""
import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import gradient_check, onednn
from kusari.onednn import pooling as kernels

pytestmark = pytest.mark.skipif(not onednn.available(), reason="oneDNN is not installed (kusari[onednn])")

CASES = [
    {"shape": (2, 3, 9), "ksize": 3, "stride": 2, "pad": 1},
    {"shape": (2, 3, 8, 8), "ksize": 2, "stride": 2, "pad": 0},
    {"shape": (2, 3, 9, 7), "ksize": 3, "stride": 2, "pad": 1},  # overlapping windows
    {"shape": (1, 2, 7, 6), "ksize": (3, 2), "stride": (1, 2), "pad": (1, 0)},
    {"shape": (1, 2, 5, 4, 6), "ksize": 2, "stride": 2, "pad": (0, 0, 1)},
]


def _apply(pool, x, case, **kwargs):
    return pool(x, case["ksize"], case["stride"], case["pad"], **kwargs)


def _forward_backward(f, x, seed=1):
    xv = kusari.Variable(x.copy())
    y = f(xv)
    y.grad = numpy.random.default_rng(seed).uniform(-1, 1, y.shape).astype(numpy.float32)
    y.backward()
    return y, xv.grad


def _pools():
    return {
        "max": lambda x, c: _apply(F.max_pooling_nd, x, c, cover_all=False),
        "max_cover_all": lambda x, c: _apply(F.max_pooling_nd, x, c, cover_all=True),
        "average": lambda x, c: _apply(F.average_pooling_nd, x, c),
        "average_without_padding": lambda x, c: _apply(F.average_pooling_nd, x, c, pad_value=None),
    }


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("pool", list(_pools()))
def test_pooling_matches_numpy(case, pool, compare, count_calls):
    calls = [count_calls(kernels, "forward"), count_calls(kernels, "backward")]
    x = numpy.random.default_rng(0).standard_normal(case["shape"]).astype(numpy.float32)
    fast, reference = compare.run_both(lambda: _forward_backward(lambda x: _pools()[pool](x, case), x))
    compare.assert_close(fast, reference)
    assert [len(c) for c in calls] == [1, 1]


@pytest.mark.parametrize("case", CASES[1:3])
def test_max_pooling_ties_pick_the_first_maximum(case, compare):
    """After a ReLU many windows are all zeros: oneDNN routes the gradient where NumPy does."""
    x = numpy.maximum(numpy.random.default_rng(2).standard_normal(case["shape"]), 0).astype(numpy.float32)
    x[0, 0] = 0
    fast, reference = compare.run_both(lambda: _forward_backward(lambda x: _pools()["max"](x, case), x))
    numpy.testing.assert_array_equal(fast[1] != 0, reference[1] != 0)  # the same positions get gradient
    numpy.testing.assert_allclose(fast[1], reference[1], rtol=1e-6)  # summed in another order where windows overlap


@pytest.mark.parametrize("case", CASES[1:3])
@pytest.mark.parametrize("pool", ["max", "average"])
def test_double_backprop_matches_numpy(case, pool, compare):
    x = numpy.random.default_rng(3).standard_normal(case["shape"]).astype(numpy.float32)

    def compute():
        xv = kusari.Variable(x.copy())
        y = _pools()[pool](xv, case)
        gx, = kusari.grad([F.sum(y * y * y)], [xv], enable_double_backprop=True)
        F.sum(gx * gx).backward()
        return gx, xv.grad
    fast, reference = compare.run_both(compute)
    compare.assert_close(fast, reference)


@pytest.mark.parametrize("pool", ["max", "average_without_padding"])
def test_gradients_numerically(pool):
    case = CASES[2]
    rng = numpy.random.default_rng(4)
    x = rng.permutation(numpy.arange(numpy.prod(case["shape"]))).reshape(case["shape"]).astype(numpy.float32)
    x /= x.size  # distinct values far apart compared with the step: no maximum changes place
    f = lambda x: _pools()[pool](x, case)  # noqa: E731
    gy = rng.uniform(-1, 1, f(x).shape).astype(numpy.float32)
    with kusari.using_config("use_onednn", "always"):
        gradient_check.check_backward(f, x, gy, eps=1e-4, atol=1e-3, rtol=1e-3)
        gradient_check.check_double_backward(lambda x: f(x) ** 2, x, gy, rng.uniform(-1, 1, x.shape).astype(numpy.float32),
                                             eps=1e-4, atol=1e-3, rtol=1e-2)


def test_return_indices_and_padding_only_windows_stay_on_numpy(count_calls, compare):
    calls = count_calls(kernels, "forward")
    x = numpy.random.default_rng(6).standard_normal((1, 2, 4, 4)).astype(numpy.float32)
    with kusari.using_config("use_onednn", "always"):
        y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
        assert indexes.shape == y.shape
        # pad 2 with windows of 2: the first and last windows hold nothing but padding (NumPy's 0)
        F.max_pooling_2d(x, 2, stride=2, pad=2, cover_all=False)
        F.average_pooling_nd(x, 2, 2, pad=2, pad_value=None)
    assert calls == []
