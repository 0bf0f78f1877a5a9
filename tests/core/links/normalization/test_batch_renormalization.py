import numpy

import kusari
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
