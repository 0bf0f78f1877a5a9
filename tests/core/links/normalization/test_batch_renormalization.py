import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L


def _x(seed=0):
    return numpy.random.default_rng(seed).standard_normal((8, 3)).astype(numpy.float32) * 3 + 2


def test_r_d_clipping_against_numpy():
    link = L.BatchRenormalization(3, rmax=1.5, dmax=0.5, decay=0.9)
    link.avg_mean[...] = [0, 2, 5]
    link.avg_var[...] = [1, 9, 4]
    x = _x()
    y = link(x)
    mean, var, eps = x.mean(0), x.var(0), 2e-5
    sigma, rsigma = numpy.sqrt(var + eps), numpy.sqrt(numpy.array([1, 9, 4]) + eps)
    r = numpy.clip(sigma / rsigma, 1 / 1.5, 1.5)
    d = numpy.clip((mean - [0, 2, 5]) / rsigma, -0.5, 0.5)
    numpy.testing.assert_allclose(y.array, (x - mean) / sigma * r + d, rtol=1e-4, atol=1e-4)
    numpy.testing.assert_allclose(link.avg_mean, 0.1 * mean + 0.9 * numpy.array([0, 2, 5]), rtol=1e-5)


def test_freeze_and_inference():
    link = L.BatchRenormalization(3, freeze_running_statistics=True)
    link(_x())
    numpy.testing.assert_array_equal(link.avg_mean, 0)
    numpy.testing.assert_array_equal(link.avg_var, 1)
    with kusari.using_config("train", False):
        numpy.testing.assert_allclose(link(_x()).array, _x() / numpy.sqrt(1 + 2e-5), rtol=1e-5)


def test_backward(check_link_backward):
    # rmax=1, dmax=0 make r = 1 and d = 0: plain batch normalization, differentiable in x
    check_link_backward(L.BatchRenormalization(3, freeze_running_statistics=True), _x(),
                        numpy.float64)
    # otherwise r and d are constants of the backward (as in the paper): check gamma and beta only
    link = L.BatchRenormalization(3, rmax=2.0, dmax=1.0, freeze_running_statistics=True)
    check_link_backward(link, _x(), numpy.float64, no_grads=[True])


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("finetune", [False, True])
def test_empty_batch_in_training_leaves_statistics_unchanged(dtype, finetune):
    link = L.BatchRenormalization(3, rmax=2.0, dmax=1.0, dtype=dtype)
    link(_x().astype(dtype), finetune=finetune)
    mean0, var0, n0 = link.avg_mean.copy(), link.avg_var.copy(), link.N
    y = link(numpy.zeros((0, 3), dtype), finetune=finetune)
    assert y.shape == (0, 3) and y.dtype == dtype
    numpy.testing.assert_array_equal(link.avg_mean, mean0)
    numpy.testing.assert_array_equal(link.avg_var, var0)
    assert link.N == n0
    link.cleargrads()
    F.sum(y).backward()
    numpy.testing.assert_array_equal(link.gamma.grad, numpy.zeros(3, dtype))
    numpy.testing.assert_array_equal(link.beta.grad, numpy.zeros(3, dtype))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_batch_of_one_keeps_statistics_finite(dtype):
    link = L.BatchRenormalization(3, rmax=2.0, dmax=1.0, dtype=dtype)
    with pytest.warns(UserWarning, match="every reduced axis"):
        link(_x()[:1].astype(dtype))
    assert numpy.isfinite(link.avg_mean).all() and numpy.isfinite(link.avg_var).all()
