import numpy
import pytest

import kusari.functions as F
from kusari import testing


def _correlate(img, k, stride, pad):
    """2-d cross-correlation of a batch of images (N, H, W) with one kernel, float64."""
    img = numpy.pad(img.astype(numpy.float64), ((0, 0), (pad, pad), (pad, pad)))
    kh, kw = k.shape
    oh = (img.shape[1] - kh) // stride + 1
    ow = (img.shape[2] - kw) // stride + 1
    out = numpy.zeros((img.shape[0], oh, ow))
    for i in range(kh):
        for j in range(kw):
            out += k[i, j] * img[:, i:i + (oh - 1) * stride + 1:stride, j:j + (ow - 1) * stride + 1:stride]
    return out


@testing.parameterize(*testing.product({
    "multiplier": [1, 2],
    "stride_pad": [(1, 0), (2, 1)],
    "nobias": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestDepthwiseConvolution2D(testing.FunctionTestCase):
    def generate_inputs(self):
        c, m = 3, self.multiplier
        x = numpy.random.uniform(-1, 1, (2, c, 5, 4)).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (m, c, 3, 2)).astype(self.dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, (m * c,)).astype(self.dtype)

    def forward(self, inputs, device):
        stride, pad = self.stride_pad
        return F.depthwise_convolution_2d(*inputs, stride=stride, pad=pad),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        stride, pad = self.stride_pad
        m, c = W.shape[:2]
        y = numpy.stack([_correlate(x[:, ci], W[mi, ci], stride, pad)
                         for ci in range(c) for mi in range(m)], axis=1)
        if len(inputs) == 3:
            y += inputs[2].reshape(1, -1, 1, 1)
        return y.astype(self.dtype),


def test_channel_mismatch():
    x = numpy.zeros((1, 3, 5, 5), numpy.float32)
    W = numpy.zeros((2, 4, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"depthwise_convolution_2d: x has 3 channels but W expects 4 "
                                         r"\(x.shape=\(1, 3, 5, 5\), W.shape=\(2, 4, 3, 3\)\)"):
        F.depthwise_convolution_2d(x, W)


def test_rank_and_bias_errors():
    x = numpy.zeros((1, 3, 5, 5), numpy.float32)
    W = numpy.zeros((2, 3, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match="depthwise_convolution_2d: W must be 4-dimensional"):
        F.depthwise_convolution_2d(x, W[0])
    with pytest.raises(ValueError, match=r"depthwise_convolution_2d: b must have shape \(6,\)"):
        F.depthwise_convolution_2d(x, W, numpy.zeros(3, numpy.float32))
