"""MnistMLP: layer sizes and the forward pass against a NumPy computation."""
import numpy

from kusari.model_zoo.models import MnistMLP


def test_default_sizes():
    model = MnistMLP()
    assert model.l1.W.shape == (800, 784) and model.l2.W.shape == (10, 800)


def test_forward_matches_numpy():
    model = MnistMLP(n_in=7, n_units=5, n_out=3)
    x = numpy.random.RandomState(0).randn(4, 7).astype(numpy.float32)
    h = numpy.maximum(x @ model.l1.W.array.T + model.l1.b.array, 0)
    expected = h @ model.l2.W.array.T + model.l2.b.array
    y = model(x)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
