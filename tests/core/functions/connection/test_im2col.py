import itertools

import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "params": [
        {"ksize": 2, "stride": 1, "pad": 0, "dilate": 1, "cover_all": False},
        {"ksize": (3, 2), "stride": (2, 1), "pad": (1, 0), "dilate": (1, 2), "cover_all": False},
        {"ksize": 3, "stride": 2, "pad": 0, "dilate": 1, "cover_all": True},
    ],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestIm2Col(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 6, 5)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.im2col(inputs[0], **self.params),

    def forward_expected(self, inputs):
        x, = inputs
        p = self.params
        pair = lambda v: v if isinstance(v, tuple) else (v, v)  # noqa: E731
        (kh, kw), (sy, sx), (ph, pw), (dy, dx) = (pair(p[k]) for k in ("ksize", "stride", "pad", "dilate"))
        n, c, h, w = x.shape
        extra = (sy - 1, sx - 1) if p["cover_all"] else (0, 0)
        oh = (h + 2 * ph - (kh - 1) * dy - 1 + extra[0]) // sy + 1
        ow = (w + 2 * pw - (kw - 1) * dx - 1 + extra[1]) // sx + 1
        y = numpy.zeros((n, c, kh, kw, oh, ow), self.dtype)
        for i, j, a, b in itertools.product(range(kh), range(kw), range(oh), range(ow)):
            r, q = a * sy + i * dy - ph, b * sx + j * dx - pw
            if 0 <= r < h and 0 <= q < w:
                y[:, :, i, j, a, b] = x[:, :, r, q]
        return y.reshape(n, c * kh * kw, oh, ow),


def test_rejects_non_4d_input():
    with pytest.raises(ValueError, match="im2col: x must be 4-dimensional"):
        F.im2col(numpy.zeros((2, 3, 4), numpy.float32), 2)


def test_rejects_bad_parameters():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"im2col: ksize must be positive, got \(0, 2\)"):
        F.im2col(x, (0, 2))
    with pytest.raises(ValueError, match=r"im2col: stride must be positive"):
        F.im2col(x, 2, stride=0)
    with pytest.raises(ValueError, match="im2col: windows of size"):
        F.im2col(x, 5)
