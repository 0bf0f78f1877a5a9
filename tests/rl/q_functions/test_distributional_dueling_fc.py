"""DistributionalDuelingFCStateQFunctionWithDiscreteAction: DistributionalDuelingDQN's head on flat
observations, against NumPy; its Linears become noisy; bad arguments."""
import numpy
import pytest

from kusari.rl import nn, utils
from kusari.rl.q_functions import DistributionalDuelingFCStateQFunctionWithDiscreteAction as Q


def numpy_forward(q, x):
    """The network in float64 NumPy: hidden layers, main stream halves, dueling logits, softmax."""
    def linear(link, h):
        return h @ link.W.array.T.astype(numpy.float64) + link.b.array

    h = x.astype(numpy.float64)
    for layer in q.hidden_layers if q.n_hidden_layers else ():
        h = numpy.maximum(linear(layer, h), 0)
    h = numpy.maximum(linear(q.main_stream, h), 0)
    half = h.shape[1] // 2
    ya = linear(q.a_stream, h[:, :half]).reshape(len(x), q.n_actions, q.n_atoms)
    ys = linear(q.v_stream, h[:, half:]).reshape(len(x), 1, q.n_atoms)
    logits = ya - ya.mean(axis=1, keepdims=True) + ys
    p = numpy.exp(logits - logits.max(axis=2, keepdims=True))
    return p / p.sum(axis=2, keepdims=True)


@pytest.mark.parametrize("n_hidden_layers", [0, 2])
def test_distributions_match_numpy(n_hidden_layers):
    utils.set_random_seed(0)
    q = Q(4, 3, 7, -2.0, 2.0, 6, n_hidden_layers)
    for _, p in q.namedparams():   # nonzero biases, so that a dropped bias shows
        p.array[...] = numpy.random.normal(0, 0.5, p.shape)
    x = numpy.random.normal(size=(5, 4)).astype(numpy.float32)
    av = q(x)
    assert av.q_dist.shape == (5, 3, 7) and av.q_dist.dtype == numpy.float32
    numpy.testing.assert_allclose(av.q_dist.array, numpy_forward(q, x), rtol=1e-5, atol=1e-7)
    numpy.testing.assert_allclose(av.z_values, numpy.linspace(-2, 2, 7, dtype=numpy.float32))
    numpy.testing.assert_allclose(av.q_values.array, (numpy_forward(q, x) * numpy.linspace(-2, 2, 7)).sum(2),
                                  rtol=1e-5, atol=1e-6)
    names = sorted(n for n, _ in q.namedparams())
    assert names == sorted([f"/hidden_layers/{i}/{w}" for i in range(n_hidden_layers) for w in "Wb"]
                           + [f"/{s}/{w}" for s in ("main_stream", "a_stream", "v_stream") for w in "Wb"])
    assert q.main_stream.W.shape == (12, 6 if n_hidden_layers else 4)


def test_noisy_version():
    utils.set_random_seed(1)
    q = Q(4, 2, 5, -1.0, 1.0, 8, 1)
    nn.to_factorized_noisy(q, sigma_scale=0.5)
    noisy = sorted(name for name, link in q.namedlinks() if isinstance(link, nn.FactorizedNoisyLinear))
    assert noisy == ["/a_stream", "/hidden_layers/0", "/main_stream", "/v_stream"]
    x = numpy.ones((1, 4), numpy.float32)
    d1, d2 = q(x).q_dist.array, q(x).q_dist.array
    numpy.testing.assert_allclose(d1.sum(axis=2), 1, rtol=1e-6)
    assert not numpy.allclose(d1, d2)   # each call draws new noise


def test_bad_arguments():
    with pytest.raises(ValueError, match="DistributionalDuelingFCStateQFunctionWithDiscreteAction: "
                                         "n_hidden_layers must be an int >= 0, got -1"):
        Q(4, 2, 5, -1.0, 1.0, 8, -1)
    with pytest.raises(ValueError, match="n_actions must be an int >= 1, got 0"):
        Q(4, 0, 5, -1.0, 1.0, 8, 1)
    with pytest.raises(ValueError, match="need n_atoms >= 2 and v_min < v_max"):
        Q(4, 2, 5, 1.0, -1.0, 8, 1)
    q = Q(4, 2, 5, -1.0, 1.0, 8, 1)
    with pytest.raises(ValueError, match=r"x must have shape \(batch_size, 4\), got \(3, 5\)"):
        q(numpy.zeros((3, 5), numpy.float32))
