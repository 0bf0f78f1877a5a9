"""MLP and MLPBN: PFRL's layer layout and parameter paths, initialization and forward values."""
import kusari
import numpy as np
import pytest
from kusari.rl.nn import MLP, MLPBN


def _relu(x):
    return np.maximum(x, 0)


def test_mlp_parameter_paths_and_shapes():
    shapes = {n: p.shape for n, p in MLP(3, 2, [4, 5]).namedparams()}
    assert shapes == {"/hidden_layers/0/W": (4, 3), "/hidden_layers/0/b": (4,),
                      "/hidden_layers/1/W": (5, 4), "/hidden_layers/1/b": (5,),
                      "/output/W": (2, 5), "/output/b": (2,)}
    assert {n for n, _ in MLP(3, 2, []).namedparams()} == {"/output/W", "/output/b"}


def test_mlp_forward_matches_numpy():
    mlp = MLP(3, 2, [4, 5], nonlinearity=kusari.functions.tanh)
    x = np.random.RandomState(0).randn(6, 3).astype(np.float32)
    h = x
    for layer in mlp.hidden_layers:
        h = np.tanh(h @ layer.W.array.T + layer.b.array)
    expected = h @ mlp.output.W.array.T + mlp.output.b.array
    y = mlp(x)
    assert y.dtype == np.float32
    np.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(MLP(3, 2, [])(x).array.shape, (6, 2))


def test_mlp_initialization_lecun_with_scaled_output():
    np.random.seed(0)
    mlp = MLP(400, 300, [500], last_wscale=0.01)
    np.testing.assert_allclose(mlp.hidden_layers[0].W.array.std(), np.sqrt(1 / 400), rtol=0.02)
    np.testing.assert_allclose(mlp.output.W.array.std(), 0.01 * np.sqrt(1 / 500), rtol=0.02)
    assert not mlp.hidden_layers[0].b.array.any() and not mlp.output.b.array.any()
    assert mlp.output.W.dtype == np.float32


def test_seeding_numpy_repeats_the_network():
    def params():
        np.random.seed(42)
        return [p.array.copy() for p in MLP(3, 2, [4]).params()]

    for a, b in zip(params(), params()):
        np.testing.assert_array_equal(a, b)


def test_mlpbn_parameter_paths():
    names = {n for n, _ in MLPBN(3, 2, [4], normalize_output=True).namedparams()}
    assert names == {"/input_bn/gamma", "/input_bn/beta",
                     "/hidden_layers/0/linear/W", "/hidden_layers/0/linear/b",
                     "/hidden_layers/0/bn/gamma", "/hidden_layers/0/bn/beta",
                     "/output/W", "/output/b", "/output_bn/gamma", "/output_bn/beta"}
    assert {n for n, _ in MLPBN(3, 2, [], normalize_input=False).namedparams()} == {
        "/output/W", "/output/b"}


@pytest.mark.parametrize("normalize_input", [True, False])
def test_mlpbn_forward_matches_numpy_in_training_mode(normalize_input):
    mlp = MLPBN(3, 2, [4], normalize_input=normalize_input, normalize_output=True)
    x = (np.random.RandomState(1).randn(8, 3) * 5 + 2).astype(np.float32)

    def bn(h):  # batch statistics, gamma = 1, beta = 0 at initialization
        return (h - h.mean(axis=0)) / np.sqrt(h.var(axis=0) + 2e-5)

    h = bn(x) if normalize_input else x
    layer = mlp.hidden_layers[0].linear
    h = _relu(bn(h @ layer.W.array.T + layer.b.array))
    expected = bn(h @ mlp.output.W.array.T + mlp.output.b.array)
    np.testing.assert_allclose(mlp(x).array, expected, rtol=1e-4, atol=1e-4)
