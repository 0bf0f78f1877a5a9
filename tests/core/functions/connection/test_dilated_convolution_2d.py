import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "params": [{"stride": 1, "pad": 2, "dilate": 2, "cover_all": False},
               {"stride": 2, "pad": 0, "dilate": 2, "cover_all": True}],
    "nobias": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestDilatedConvolution2D(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, 2, 6, 7)).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (3, 2, 2, 3)).astype(self.dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, (3,)).astype(self.dtype)

    def forward(self, inputs, device):
        return F.dilated_convolution_2d(*inputs, **self.params),

    def forward_expected(self, inputs):
        x, W = (a.astype(numpy.float64) for a in inputs[:2])
        s, p, d = self.params["stride"], self.params["pad"], self.params["dilate"]
        extra = s - 1 if self.params["cover_all"] else 0
        kh, kw = W.shape[2:]
        xp = numpy.pad(x, ((0, 0), (0, 0), (p, p + s), (p, p + s)))
        oh = (x.shape[2] + 2 * p - (kh - 1) * d - 1 + extra) // s + 1
        ow = (x.shape[3] + 2 * p - (kw - 1) * d - 1 + extra) // s + 1
        y = numpy.zeros((x.shape[0], W.shape[0], oh, ow))
        for a in range(oh):
            for b in range(ow):
                patch = xp[:, :, a * s:a * s + (kh - 1) * d + 1:d, b * s:b * s + (kw - 1) * d + 1:d]
                y[:, :, a, b] = numpy.einsum("nchw,ochw->no", patch, W)
        if len(inputs) == 3:
            y += inputs[2].reshape(1, -1, 1, 1)
        return y.astype(self.dtype),


def test_errors_name_the_function():
    x = numpy.zeros((1, 2, 5, 5), numpy.float32)
    with pytest.raises(ValueError, match="dilated_convolution_2d: x has 2 channels but W expects 3"):
        F.dilated_convolution_2d(x, numpy.zeros((1, 3, 3, 3), numpy.float32))
    with pytest.raises(ValueError, match="dilated_convolution_2d: the kernel does not fit the input"):
        F.dilated_convolution_2d(x, numpy.zeros((1, 2, 3, 3), numpy.float32), dilate=3)
