"""FactorizedNoisyLinear: forward and gradients against NumPy on fixed noise, PFRL's initialization,
fresh noise at every call (eager, evaluation and static_graph replays), bad arguments."""
import math

import numpy
import pytest

import kusari
import kusari.links as L
from kusari import gradient_check
from kusari.rl import nn, utils

IN, OUT, BATCH = 5, 3, 4


def fixed_noise(monkeypatch, e):
    """Make every draw of the layer's noise return ``e`` (the raw standard normals)."""
    def standard_normal(size):
        assert size == e.shape[0], (size, e.shape)
        return e.copy()
    monkeypatch.setattr(numpy.random, "standard_normal", standard_normal)


def expected_output(layer, x, e, nobias):
    """The layer's output in float64 NumPy from its parameters and the raw draws ``e``."""
    f = numpy.sign(e) * numpy.sqrt(numpy.abs(e))
    f_in, f_out = f[:IN], f[IN:]
    W = layer.mu.W.array + layer.sigma.W.array * numpy.outer(f_out, f_in)
    y = x.astype(numpy.float64) @ W.T.astype(numpy.float64)
    if not nobias:
        y = y + layer.mu.b.array + layer.sigma.b.array * f_out
    return y


def make_layer(dtype, nobias=False, sigma_scale=0.4):
    mu_link = L.Linear(IN, OUT, nobias, initialW=kusari.initializers.LeCunNormal(dtype=dtype))
    return nn.FactorizedNoisyLinear(mu_link, sigma_scale=sigma_scale)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("nobias", [False, True])
def test_forward_matches_numpy_on_fixed_noise(monkeypatch, dtype, nobias):
    utils.set_random_seed(0)
    layer = make_layer(dtype, nobias)
    # sigma's constants would hide a transposed noise: make every amplitude distinct
    layer.sigma.W.array[...] = numpy.random.uniform(0.1, 1, (OUT, IN))
    if not nobias:
        layer.sigma.b.array[...] = numpy.random.uniform(0.1, 1, OUT)
    e = numpy.random.normal(size=IN + OUT).astype(dtype)
    fixed_noise(monkeypatch, e)
    x = numpy.random.uniform(-1, 1, (BATCH, IN)).astype(dtype)
    y = layer(x)
    assert y.shape == (BATCH, OUT) and y.dtype == dtype
    tol = 1e-6 if dtype == numpy.float32 else 1e-12
    numpy.testing.assert_allclose(y.array, expected_output(layer, x, e, nobias), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("nobias", [False, True])
def test_gradients_and_double_gradients(monkeypatch, dtype, nobias):
    utils.set_random_seed(1)
    layer = make_layer(dtype, nobias)
    rng = numpy.random.RandomState(2)
    fixed_noise(monkeypatch, rng.normal(size=IN + OUT).astype(dtype))
    params = tuple(p for _, p in sorted(layer.namedparams()))
    x = rng.uniform(-1, 1, (BATCH, IN)).astype(dtype)
    gy = rng.uniform(-1, 1, (BATCH, OUT)).astype(dtype)
    ggx = rng.uniform(-1, 1, x.shape).astype(dtype)
    ggparams = tuple(rng.uniform(-1, 1, p.shape).astype(dtype) for p in params)
    options = dict(atol=1e-3, rtol=1e-3) if dtype == numpy.float32 else dict(atol=1e-7, rtol=1e-6)
    # numerical derivatives in float64 either way; the function is the layer with fixed noise
    gradient_check.check_backward(layer, x, gy, params=params, dtype=numpy.float64, **options)
    # y is bilinear in x and the parameters, so the second derivatives are nonzero
    gradient_check.check_double_backward(layer, x, gy, ggx, params=params, params_grad_grad=ggparams,
                                         dtype=numpy.float64, **options)


def test_initialization_is_pfrls():
    utils.set_random_seed(3)
    in_size, out_size, sigma_scale = 400, 30, 0.5
    layer = nn.FactorizedNoisyLinear(L.Linear(in_size, out_size), sigma_scale=sigma_scale)
    bound = 1 / math.sqrt(in_size)
    for p in (layer.mu.W.array, layer.mu.b.array):
        assert p.dtype == numpy.float32
        assert numpy.abs(p).max() <= bound and numpy.abs(p).max() > 0.9 * bound
    # U(-bound, bound): centred, standard deviation bound / sqrt(3) (12,000 draws)
    assert abs(layer.mu.W.array.mean()) < 0.05 * bound
    assert layer.mu.W.array.std() == pytest.approx(bound / math.sqrt(3), rel=0.05)
    numpy.testing.assert_array_equal(layer.sigma.W.array,
                                     numpy.float32(sigma_scale / math.sqrt(in_size)))
    # PFRL's quirk: the bias's constant divides by its own length, the output size
    numpy.testing.assert_array_equal(layer.sigma.b.array,
                                     numpy.float32(sigma_scale / math.sqrt(out_size)))
    assert sorted(n for n, _ in layer.namedparams()) == ["/mu/W", "/mu/b", "/sigma/W", "/sigma/b"]


def test_dtype_follows_mu_link_and_nobias():
    layer = make_layer(numpy.float64, nobias=True)
    assert sorted(n for n, _ in layer.namedparams()) == ["/mu/W", "/sigma/W"]
    assert layer.mu.W.dtype == layer.sigma.W.dtype == numpy.float64
    assert layer(numpy.zeros((2, IN))).dtype == numpy.float64


def test_noise_is_drawn_at_every_call_in_training_and_evaluation():
    utils.set_random_seed(4)
    layer = make_layer(numpy.float32)
    x = numpy.ones((1, IN), numpy.float32)
    first, second = layer(x).array, layer(x).array
    assert not numpy.allclose(first, second)
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        assert not numpy.allclose(layer(x).array, layer(x).array)
    # the draws come from NumPy's global generator: seeding repeats them
    utils.set_random_seed(5)
    again = layer(x).array
    utils.set_random_seed(5)
    numpy.testing.assert_array_equal(layer(x).array, again)
    # with zero noise amplitudes the layer is its mean
    layer.sigma.W.array[...] = 0
    layer.sigma.b.array[...] = 0
    numpy.testing.assert_allclose(layer(x).array, x @ layer.mu.W.array.T + layer.mu.b.array, rtol=1e-6)


def test_static_graph_replays_draw_new_noise():
    utils.set_random_seed(6)
    layer = make_layer(numpy.float32)
    x = numpy.random.uniform(-1, 1, (BATCH, IN)).astype(numpy.float32)

    @kusari.static_graph
    def run(x):
        return layer(x)

    outputs = []
    for seed in (7, 8, 9):   # the first call traces, the others replay
        utils.set_random_seed(seed)
        outputs.append(run(x).array.copy())
        utils.set_random_seed(seed)
        numpy.testing.assert_array_equal(outputs[-1], layer(x).array)  # the eager draws of that seed
    assert not numpy.allclose(outputs[1], outputs[2])


def test_bad_arguments():
    with pytest.raises(TypeError, match="FactorizedNoisyLinear: mu_link must be a Linear, got Bias"):
        nn.FactorizedNoisyLinear(L.Bias(shape=(3,)))
    with pytest.raises(ValueError, match="FactorizedNoisyLinear: mu_link's input size is unknown"):
        nn.FactorizedNoisyLinear(L.Linear(None, 3))
    with pytest.raises(ValueError, match="FactorizedNoisyLinear: sigma_scale must be >= 0, got -0.1"):
        nn.FactorizedNoisyLinear(L.Linear(2, 3), sigma_scale=-0.1)
    layer = make_layer(numpy.float32)
    with pytest.raises(ValueError, match=r"FactorizedNoisyLinear: x must have 5 features .*x.shape=\(2, 4\)"):
        layer(numpy.zeros((2, 4), numpy.float32))
