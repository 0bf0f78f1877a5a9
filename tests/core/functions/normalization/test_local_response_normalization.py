import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product([
    [{"shape": (2, 7, 3), "n": 5, "k": 2, "alpha": 1e-4, "beta": 0.75},
     {"shape": (2, 6, 2, 2), "n": 3, "k": 1, "alpha": 0.5, "beta": 0.75},
     {"shape": (3, 4), "n": 4, "k": 1.5, "alpha": 0.3, "beta": 1.2}],
    [{"dtype": numpy.float32}, {"dtype": numpy.float64}],
]))
class TestLocalResponseNormalization(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.local_response_normalization(inputs[0], self.n, self.k, self.alpha, self.beta),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        half = self.n // 2
        y = numpy.empty_like(x)
        for c in range(x.shape[1]):
            window = x[:, max(c - half, 0):c + half + 1]
            y[:, c] = x[:, c] * (self.k + self.alpha * (window ** 2).sum(axis=1)) ** -self.beta
        return y.astype(self.dtype),


def test_one_dimensional_input_rejected():
    with pytest.raises(ValueError, match=r"local_response_normalization: x must have at least 2 "
                                         r"dimensions \(batch, channel, ...\), got x.shape=\(4,\)"):
        F.local_response_normalization(numpy.ones(4, numpy.float32))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="local_response_normalization: x must be a floating-point array"):
        F.local_response_normalization(numpy.ones((2, 4), numpy.int32))


def test_bad_window_rejected():
    with pytest.raises(ValueError, match="local_response_normalization: n must be a positive int, got 0"):
        F.local_response_normalization(numpy.ones((2, 4), numpy.float32), n=0)
