import warnings

import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
from kusari.serializers import DictionarySerializer, NpzDeserializer


def _x(shape=(6, 3, 2, 2), seed=0):
    return numpy.random.default_rng(seed).standard_normal(shape).astype(numpy.float32) * 2 + 1


def test_train_forward_and_running_statistics():
    link = L.BatchNormalization(3, decay=0.8)
    link.gamma.array[...] = [1, 2, 3]
    link.beta.array[...] = [0, -1, 1]
    x = _x()
    y = link(x)
    mean = x.mean(axis=(0, 2, 3))
    var = x.var(axis=(0, 2, 3))
    expected = (x - mean[:, None, None]) / numpy.sqrt(var[:, None, None] + 2e-5)
    expected = expected * numpy.array([1, 2, 3])[:, None, None] + numpy.array([0, -1, 1])[:, None, None]
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-4)
    m = x.size // 3
    numpy.testing.assert_allclose(link.avg_mean, 0.2 * mean, rtol=1e-5)
    numpy.testing.assert_allclose(link.avg_var, 0.8 + 0.2 * var * m / (m - 1), rtol=1e-5)
    assert y.dtype == numpy.float32 and link.avg_mean.dtype == numpy.float32


def test_test_mode_uses_running_statistics():
    link = L.BatchNormalization(3, eps=1e-3)
    link.avg_mean[...] = [1, 0, -1]
    link.avg_var[...] = [4, 1, 0.25]
    x = _x()
    with kusari.using_config("train", False):
        y = link(x)
    expected = (x - numpy.array([1, 0, -1])[:, None, None]) / numpy.sqrt(
        numpy.array([4, 1, 0.25])[:, None, None] + 1e-3)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-5)
    numpy.testing.assert_array_equal(link.avg_mean, [1, 0, -1])


def test_finetune_averages_exactly():
    link = L.BatchNormalization(3)
    xs = [_x(seed=s) for s in range(3)]
    for x in xs:
        link(x, finetune=True)
    assert link.N == 3
    expected = numpy.mean([x.mean(axis=(0, 2, 3)) for x in xs], axis=0)
    numpy.testing.assert_allclose(link.avg_mean, expected, rtol=1e-5)
    link.start_finetuning()
    assert link.N == 0


def test_lazy_size_axis_and_no_gamma_beta():
    link = L.BatchNormalization(use_gamma=False, use_beta=False)
    assert link.avg_mean is None and list(link.params()) == []
    y = link(_x((5, 4)))
    assert link.avg_mean.shape == (4,)
    numpy.testing.assert_allclose(y.array.mean(axis=0), 0, atol=1e-5)
    link = L.BatchNormalization(axis=(0, 1))
    y = link(_x((3, 4, 2)))
    assert link.avg_mean.shape == (2,) and link.gamma.shape == (2,)
    numpy.testing.assert_allclose(y.array.mean(axis=(0, 1)), 0, atol=1e-5)


def test_initial_values_and_dtype():
    link = L.BatchNormalization(2, dtype=numpy.float64, initial_gamma=3.0, initial_beta=-1.0,
                                initial_avg_mean=0.5, initial_avg_var=2.0)
    assert link.gamma.dtype == numpy.float64 and link.avg_mean.dtype == numpy.float64
    numpy.testing.assert_array_equal(link.gamma.array, 3)
    numpy.testing.assert_array_equal(link.beta.array, -1)
    numpy.testing.assert_array_equal(link.avg_mean, 0.5)
    numpy.testing.assert_array_equal(link.avg_var, 2.0)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_backward(dtype, check_link_backward):
    link = L.BatchNormalization(3)
    link.gamma.array[...] = [0.5, 1, 2]
    check_link_backward(link, _x((4, 3)), dtype)


def test_serialization_round_trip():
    src = L.BatchNormalization(3)
    src(_x())
    src(_x(seed=1), finetune=True)
    store = {}
    DictionarySerializer(store).save(src)
    assert set(store) == {"gamma", "beta", "avg_mean", "avg_var", "N"}
    dst = L.BatchNormalization(3)
    NpzDeserializer(store).load(dst)
    numpy.testing.assert_array_equal(dst.avg_mean, src.avg_mean)
    numpy.testing.assert_array_equal(dst.avg_var, src.avg_var)
    assert dst.N == 1
    lazy = L.BatchNormalization()
    NpzDeserializer(store).load(lazy)
    numpy.testing.assert_array_equal(lazy.avg_var, src.avg_var)
    numpy.testing.assert_array_equal(lazy.gamma.array, src.gamma.array)


@pytest.mark.parametrize("size", [3, None])
def test_mixed16_keeps_float32_parameters_and_statistics(size):
    with kusari.using_config("dtype", "mixed16"):
        bn = L.BatchNormalization(size)
        linear = L.Linear(3, 3)
    x = _x((6, 3)).astype(numpy.float16)
    y = bn(x)  # lazy sizes initialize here, after the config is gone, still in float32
    assert linear.W.dtype == numpy.float16
    assert {bn.gamma.dtype, bn.beta.dtype, bn.avg_mean.dtype, bn.avg_var.dtype} == {numpy.dtype(numpy.float32)}
    assert y.dtype == numpy.float16
    with kusari.using_config("train", False):
        assert bn(x).dtype == numpy.float16


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("finetune", [False, True])
def test_empty_batch_in_training_leaves_statistics_unchanged(dtype, finetune):
    link = L.BatchNormalization(3, dtype=dtype)
    link(_x().astype(dtype), finetune=finetune)
    mean0, var0, n0 = link.avg_mean.copy(), link.avg_var.copy(), link.N
    y = link(numpy.zeros((0, 3, 2, 2), dtype), finetune=finetune)
    assert y.shape == (0, 3, 2, 2) and y.dtype == dtype
    numpy.testing.assert_array_equal(link.avg_mean, mean0)
    numpy.testing.assert_array_equal(link.avg_var, var0)
    assert link.N == n0
    link.cleargrads()
    F.sum(y).backward()
    numpy.testing.assert_array_equal(link.gamma.grad, numpy.zeros(3, dtype))
    numpy.testing.assert_array_equal(link.beta.grad, numpy.zeros(3, dtype))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("shape", [(1, 3), (1, 3, 2, 2)])
def test_batch_of_one_keeps_statistics_finite(dtype, shape):
    link = L.BatchNormalization(3, dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the single-sample warning, for shape (1, 3)
        link(_x(shape).astype(dtype))
    assert numpy.isfinite(link.avg_mean).all() and numpy.isfinite(link.avg_var).all()


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float64])
def test_array_and_initializer_arguments_take_the_links_dtype(dtype):
    gamma = numpy.arange(1, 4, dtype=numpy.float32)
    normal = kusari.initializers.Normal(1.0, dtype=numpy.float32)
    link = L.BatchNormalization(3, dtype=dtype, initial_gamma=gamma, initial_beta=normal)
    assert link.gamma.dtype == link.beta.dtype == link.avg_mean.dtype == dtype
    numpy.testing.assert_array_equal(link.gamma.array, gamma.astype(dtype))
    assert normal.dtype == numpy.float32  # the caller's initializer is not changed
    with kusari.using_config("train", False):
        assert link(numpy.ones((2, 3), dtype)).dtype == dtype
