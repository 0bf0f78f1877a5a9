"""oneDNN batch normalization against the NumPy path: training forward with the running statistics,
inference forward, gradients, double backprop, and the cases that stay on NumPy."""
import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import gradient_check, onednn
from kusari.onednn import batch_normalization as kernels

pytestmark = pytest.mark.skipif(not onednn.available(), reason="oneDNN is not installed (kusari[onednn])")

SHAPES = [(6, 3), (4, 5, 7), (3, 16, 5, 4), (2, 20, 3, 4, 2)]


def _inputs(shape, seed=0):
    rng = numpy.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(numpy.float32)
    gamma = rng.uniform(0.5, 1.5, shape[1]).astype(numpy.float32)
    beta = rng.uniform(-1, 1, shape[1]).astype(numpy.float32)
    return x, gamma, beta


@pytest.mark.parametrize("shape", SHAPES)
def test_training_matches_numpy(shape, compare, count_calls):
    calls = [count_calls(kernels, name) for name in ("forward_training", "backward")]
    x, gamma, beta = _inputs(shape)

    def compute():
        xv, gv, bv = (kusari.Variable(a.copy()) for a in (x, gamma, beta))
        mean = numpy.full(shape[1], 0.25, numpy.float32)
        var = numpy.full(shape[1], 2.0, numpy.float32)
        y = F.batch_normalization(xv, gv, bv, eps=1e-3, running_mean=mean, running_var=var, decay=0.8)
        y.grad = numpy.random.default_rng(1).uniform(-1, 1, shape).astype(numpy.float32)
        y.backward()
        return y, xv.grad, gv.grad, bv.grad, mean, var
    fast, reference = compare.run_both(compute)
    compare.assert_close(fast, reference, rtol=1e-4, atol=2e-5)
    assert [len(c) for c in calls] == [1, 1]


@pytest.mark.parametrize("shape", SHAPES)
def test_inference_matches_numpy(shape, compare, count_calls):
    calls = count_calls(kernels, "forward_inference")
    x, gamma, beta = _inputs(shape, seed=2)
    rng = numpy.random.default_rng(3)
    mean = rng.uniform(-1, 1, shape[1]).astype(numpy.float32)
    var = rng.uniform(0.5, 2, shape[1]).astype(numpy.float32)

    def compute():
        variables = [kusari.Variable(a.copy()) for a in (x, gamma, beta, mean, var)]
        y = F.fixed_batch_normalization(*variables, eps=1e-3)
        y.grad = numpy.random.default_rng(4).uniform(-1, 1, shape).astype(numpy.float32)
        y.backward()
        return [y] + [v.grad for v in variables]
    fast, reference = compare.run_both(compute)
    compare.assert_close(fast, reference)
    assert len(calls) == 1


@pytest.mark.parametrize("shape", SHAPES[1:3])
def test_double_backprop_matches_numpy(shape, compare):
    """Second derivatives through the oneDNN node's gradient node equal those of the NumPy graph."""
    x, gamma, beta = _inputs(shape, seed=5)
    w = numpy.random.default_rng(6).uniform(-1, 1, shape).astype(numpy.float32)

    def compute():
        xv, gv, bv = (kusari.Variable(a.copy()) for a in (x, gamma, beta))
        y = F.batch_normalization(xv, gv, bv)
        gx, gg, gb = kusari.grad([F.sum(y * y * w)], [xv, gv, bv], enable_double_backprop=True)
        (F.sum(gx * gx * w + gx) + F.sum(gg * gb) + F.sum(gg * gg)).backward()
        return gx, gg, gb, xv.grad, gv.grad, bv.grad
    fast, reference = compare.run_both(compute)
    compare.assert_close(fast, reference, rtol=1e-3, atol=1e-4)


def test_gradients_numerically():
    """Gradient and double-gradient checks with every batch normalization on oneDNN (float32)."""
    x, gamma, beta = _inputs((4, 3, 2, 3), seed=7)
    rng = numpy.random.default_rng(8)
    gy = rng.uniform(-1, 1, x.shape).astype(numpy.float32)
    ggs = tuple(rng.uniform(-1, 1, a.shape).astype(numpy.float32) for a in (x, gamma, beta))
    f = F.batch_normalization
    with kusari.using_config("use_onednn", "always"):
        gradient_check.check_backward(f, (x, gamma, beta), gy, eps=1e-2, atol=5e-3, rtol=5e-3)
        gradient_check.check_double_backward(f, (x, gamma, beta), gy, ggs, eps=1e-2, atol=5e-3, rtol=5e-3)


def test_link_trains_the_same(compare):
    """L.BatchNormalization: training steps update the same running statistics, and test mode agrees."""
    x, _, _ = _inputs((8, 4, 3, 3), seed=10)

    def compute():
        link = L.BatchNormalization(4, decay=0.5)
        for k in range(3):
            link(x * (k + 1))
        with kusari.using_config("train", False):
            y = link(x)
        return y, link.avg_mean, link.avg_var
    fast, reference = compare.run_both(compute)
    compare.assert_close(fast, reference)


def test_other_layouts_stay_on_numpy(count_calls):
    """Statistics over other axes, a 2-d gamma and float64 inputs have no oneDNN path (a mixed16 x is cast
    to float32 first, which oneDNN then takes: tests/core/functions/test_mixed_dtypes.py)."""
    calls = count_calls(kernels, "forward_training")
    x, gamma, beta = _inputs((4, 3, 5))
    with kusari.using_config("use_onednn", "always"):
        F.batch_normalization(x, gamma[:1].repeat(5), beta[:1].repeat(5), axis=(0, 1))
        F.batch_normalization(x, numpy.ones((3, 5), numpy.float32), numpy.zeros((3, 5), numpy.float32))
        F.batch_normalization(x.astype(numpy.float64), gamma.astype(numpy.float64), beta.astype(numpy.float64))
    assert calls == []
