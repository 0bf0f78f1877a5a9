"""LeNet5: LeNet-5's layer sizes, and the first stage against a direct NumPy convolution."""
import numpy

import kusari.functions as F
from kusari.model_zoo.models import LeNet5


def test_shapes_and_parameter_count():
    model = LeNet5()
    y = model(numpy.zeros((2, 1, 28, 28), numpy.float32))
    assert y.shape == (2, 10) and y.dtype == numpy.float32
    # C1 156, C3 2416 (fully connected C3), C5 48120, F6 10164, output 850
    assert sum(p.size for p in model.params()) == 156 + 2416 + 48120 + 10164 + 850
    assert LeNet5(n_class=3)(numpy.zeros((1, 1, 28, 28), numpy.float32)).shape == (1, 3)


def test_first_stage_matches_numpy():
    model = LeNet5()
    x = numpy.random.RandomState(0).rand(2, 1, 28, 28).astype(numpy.float32)
    W, b = model.conv1.W.array, model.conv1.b.array
    padded = numpy.pad(x, ((0, 0), (0, 0), (2, 2), (2, 2)))
    conv = numpy.zeros((2, 6, 28, 28), numpy.float32)
    for i in range(5):
        for j in range(5):
            conv += numpy.einsum("nchw,oc->nohw", padded[:, :, i:i + 28, j:j + 28], W[:, :, i, j])
    conv = numpy.maximum(conv + b[None, :, None, None], 0)
    expected = conv.reshape(2, 6, 14, 2, 14, 2).max(axis=(3, 5))
    got = F.max_pooling_2d(F.relu(model.conv1(x)), 2)
    numpy.testing.assert_allclose(got.array, expected, rtol=1e-4, atol=1e-5)
