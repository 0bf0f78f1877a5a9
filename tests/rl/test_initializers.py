"""kusari.rl.initializers: PFRL's re-initializers and PyTorch's default for a kusari layer."""
import math

import numpy
import pytest

import kusari.links as L
from kusari.rl import initializers


def test_pytorch_default_draws_weight_and_bias_uniformly_within_one_over_sqrt_fan_in():
    numpy.random.seed(0)
    layer = initializers.init_pytorch_default(L.Linear(400, 300))
    bound = 1 / math.sqrt(400)
    for param in (layer.W.array, layer.b.array):
        assert param.dtype == numpy.float32
        assert numpy.abs(param).max() <= bound
        assert numpy.abs(param).max() > 0.95 * bound           # spread over the whole interval
    assert layer.W.array.std() == pytest.approx(bound / math.sqrt(3), rel=0.02)


def test_pytorch_default_counts_the_kernel_area_in_fan_in():
    numpy.random.seed(0)
    layer = initializers.init_pytorch_default(L.Convolution2D(4, 8, ksize=3))
    bound = 1 / math.sqrt(4 * 3 * 3)
    assert numpy.abs(layer.W.array).max() <= bound and numpy.abs(layer.b.array).max() <= bound
    assert numpy.abs(layer.W.array).max() > 0.9 * bound


def test_reinitialization_is_seeded_by_numpy():
    draws = []
    for _ in range(2):
        numpy.random.seed(3)
        draws.append(initializers.init_pytorch_default(L.Linear(5, 4)).W.array.copy())
    numpy.testing.assert_array_equal(*draws)


def test_chainer_default_redraws_lecun_normal_weights_and_zero_biases():
    numpy.random.seed(0)
    layer = L.Linear(500, 200)
    layer.b.array[...] = 1
    initializers.init_chainer_default(layer)
    assert not layer.b.array.any()
    assert layer.W.array.std() == pytest.approx(1 / math.sqrt(500), rel=0.02)
    array = numpy.empty((300, 100), numpy.float32)
    assert initializers.init_lecun_normal(array, scale=0.5).std() == pytest.approx(0.05, rel=0.03)


def test_a_layer_without_an_initialized_weight_is_a_clear_error():
    with pytest.raises(TypeError, match="init_pytorch_default: expected a layer .* got Linear"):
        initializers.init_pytorch_default(L.Linear(None, 3))      # lazy: W not drawn yet
    with pytest.raises(TypeError, match="init_chainer_default: .* got BatchNormalization"):
        initializers.init_chainer_default(L.BatchNormalization(3))
