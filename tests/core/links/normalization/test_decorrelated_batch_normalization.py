import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L


def test_whitening_and_running_statistics():
    rng = numpy.random.default_rng(0)
    mix = numpy.array([[2.0, 0.5], [0.3, 1.0]])
    x = (rng.standard_normal((500, 2)) @ mix.T + [1.0, -2.0]).astype(numpy.float32)
    x = numpy.concatenate([x, x * 2], axis=1)  # two groups of two channels
    link = L.DecorrelatedBatchNormalization(4, groups=2, decay=0.0, eps=1e-6)
    assert link.avg_mean.shape == (2, 2) and link.avg_projection.shape == (2, 2, 2)
    numpy.testing.assert_array_equal(link.avg_projection[1], numpy.eye(2))
    y = link(x).array
    for g in range(2):
        yg = y[:, 2 * g:2 * g + 2].astype(numpy.float64)
        numpy.testing.assert_allclose(yg.mean(0), 0, atol=1e-4)
        numpy.testing.assert_allclose(yg.T @ yg / len(yg), numpy.eye(2), atol=1e-3)
        numpy.testing.assert_allclose(link.avg_mean[g], x[:, 2 * g:2 * g + 2].mean(0), rtol=1e-4)
    with kusari.using_config("train", False):
        # with decay 0 the running projection is the batch one, up to the m / (m - 1) factor
        numpy.testing.assert_allclose(link(x).array, y * 500 / 499, rtol=1e-3, atol=1e-3)


def test_size_not_divisible():
    with pytest.raises(ValueError, match="DecorrelatedBatchNormalization.*size=5.*groups=2"):
        L.DecorrelatedBatchNormalization(5, groups=2)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("finetune", [False, True])
def test_empty_batch_in_training_leaves_statistics_unchanged(dtype, finetune):
    link = L.DecorrelatedBatchNormalization(4, groups=2, dtype=dtype)
    link(numpy.random.default_rng(1).standard_normal((6, 4)).astype(dtype), finetune=finetune)
    mean0, projection0, n0 = link.avg_mean.copy(), link.avg_projection.copy(), link.N
    x = kusari.Variable(numpy.zeros((0, 4, 3), dtype))
    y = link(x, finetune=finetune)
    assert y.shape == (0, 4, 3) and y.dtype == dtype
    numpy.testing.assert_array_equal(link.avg_mean, mean0)
    numpy.testing.assert_array_equal(link.avg_projection, projection0)
    assert link.N == n0
    F.sum(y).backward()
    assert x.grad.shape == (0, 4, 3)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_batch_of_one_keeps_statistics_finite(dtype):
    link = L.DecorrelatedBatchNormalization(4, groups=2, dtype=dtype)
    link(numpy.random.default_rng(2).standard_normal((1, 4)).astype(dtype))
    assert numpy.isfinite(link.avg_mean).all() and numpy.isfinite(link.avg_projection).all()
