import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "stride": [1, 2],
    "nobias": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestLocalConvolution2D(testing.FunctionTestCase):
    def setup(self):
        self.out = ((5 - 3) // self.stride + 1, (4 - 2) // self.stride + 1)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, 3, 5, 4)).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (2,) + self.out + (3, 3, 2)).astype(self.dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, (2,) + self.out).astype(self.dtype)

    def forward(self, inputs, device):
        return F.local_convolution_2d(*inputs, stride=self.stride),

    def forward_expected(self, inputs):
        x, W = (a.astype(numpy.float64) for a in inputs[:2])
        s = self.stride
        kh, kw = W.shape[4:]
        y = numpy.zeros((x.shape[0], W.shape[0]) + self.out)
        for i in range(self.out[0]):
            for j in range(self.out[1]):
                patch = x[:, :, i * s:i * s + kh, j * s:j * s + kw]
                y[:, :, i, j] = numpy.einsum("nchw,ochw->no", patch, W[:, i, j])
        if len(inputs) == 3:
            y += inputs[2]
        return y.astype(self.dtype),


def _arrays():
    return numpy.zeros((1, 3, 5, 4), numpy.float32), numpy.zeros((2, 3, 3, 3, 3, 2), numpy.float32)


def test_output_grid_must_match():
    x, W = _arrays()
    with pytest.raises(ValueError, match=r"local_convolution_2d: W.shape\[1:3\]=\(3, 3\) must be the "
                                         r"output size \(2, 2\)"):
        F.local_convolution_2d(x, W, stride=2)


def test_channel_bias_and_rank_errors():
    x, W = _arrays()
    with pytest.raises(ValueError, match="local_convolution_2d: x has 2 channels but W expects 3"):
        F.local_convolution_2d(x[:, :2], W)
    with pytest.raises(ValueError, match=r"local_convolution_2d: b must have shape \(2, 3, 3\), "
                                         r"got b.shape=\(2,\)"):
        F.local_convolution_2d(x, W, numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match="local_convolution_2d: W must be 6-dimensional"):
        F.local_convolution_2d(x, W[0])
    with pytest.raises(ValueError, match=r"local_convolution_2d: stride must be positive"):
        F.local_convolution_2d(x, W, stride=0)
