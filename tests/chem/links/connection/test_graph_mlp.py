import numpy
import pytest
from kusari import functions as F
from kusari.chem.links import GraphMLP


def test_layers_and_activation_between_them():
    x = numpy.random.RandomState(0).randn(2, 4, 3).astype(numpy.float32)
    mlp = GraphMLP([5, 2], in_channels=3, activation=F.tanh)
    assert [layer.W.shape for layer in mlp.layers] == [(5, 3), (2, 5)]
    first, last = mlp.layers
    expected = numpy.tanh(x @ first.W.array.T + first.b.array) @ last.W.array.T + last.b.array
    numpy.testing.assert_allclose(mlp(x).array, expected, rtol=1e-5, atol=1e-6)


def test_channels_must_be_a_list():
    with pytest.raises(TypeError, match="GraphMLP: channels"):
        GraphMLP(8)
