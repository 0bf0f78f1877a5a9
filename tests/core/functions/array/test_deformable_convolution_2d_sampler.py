import numpy
import pytest

import kusari.functions as F
from kusari import testing


def bilinear_at(image, v, u):
    c, h, w = image.shape
    out = numpy.zeros(c)
    for yy in range(h):
        for xx in range(w):
            out += max(0.0, 1 - abs(v - yy)) * max(0.0, 1 - abs(u - xx)) * image[:, yy, xx]
    return out


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [(1, 0, True), ((2, 1), (1, 0), False), (2, 1, True)],
}))
class TestDeformableConvolution2DSampler(testing.FunctionTestCase):
    def setup(self):
        self.stride, self.pad, self.use_bias = self.case
        self.sy, self.sx = self.stride if isinstance(self.stride, tuple) else (self.stride,) * 2
        self.ph, self.pw = self.pad if isinstance(self.pad, tuple) else (self.pad,) * 2

    def generate_inputs(self):
        n, c, h, w, out_c, kh, kw = 2, 2, 4, 5, 3, 2, 3
        out_h = (h + 2 * self.ph - kh) // self.sy + 1
        out_w = (w + 2 * self.pw - kw) // self.sx + 1
        x = numpy.random.uniform(-1, 1, (n, c, h, w)).astype(self.dtype)
        shape = (n, 2 * kh * kw, out_h, out_w)
        # whole-pixel shifts plus a fraction kept away from the kinks of bilinear sampling
        offset = (numpy.random.randint(-1, 2, shape) + numpy.random.uniform(0.15, 0.85, shape))
        W = numpy.random.uniform(-1, 1, (out_c, c, kh, kw)).astype(self.dtype)
        inputs = (x, offset.astype(self.dtype), W)
        if self.use_bias:
            inputs += (numpy.random.uniform(-1, 1, out_c).astype(self.dtype),)
        return inputs

    def forward(self, inputs, device):
        x, offset, W = inputs[:3]
        b = inputs[3] if self.use_bias else None
        return F.deformable_convolution_2d_sampler(x, offset, W, b, self.stride, self.pad),

    def forward_expected(self, inputs):
        x, offset, W = (a.astype(numpy.float64) for a in inputs[:3])
        n = x.shape[0]
        out_c, c, kh, kw = W.shape
        out_h, out_w = offset.shape[2:]
        x_pad = numpy.pad(x, ((0, 0), (0, 0), (self.ph, self.ph), (self.pw, self.pw)))
        y = numpy.zeros((n, out_c, out_h, out_w))
        for b in range(n):
            for p, q in numpy.ndindex(out_h, out_w):
                for i, j in numpy.ndindex(kh, kw):
                    k = i * kw + j
                    v = p * self.sy + i + offset[b, kh * kw + k, p, q]
                    u = q * self.sx + j + offset[b, k, p, q]
                    y[b, :, p, q] += W[:, :, i, j] @ bilinear_at(x_pad[b], v, u)
        if self.use_bias:
            y += inputs[3].astype(numpy.float64)[None, :, None, None]
        return y.astype(self.dtype),


def test_zero_offset_is_an_ordinary_convolution():
    x = numpy.random.uniform(-1, 1, (1, 2, 4, 4))
    W = numpy.random.uniform(-1, 1, (3, 2, 3, 3))
    y = F.deformable_convolution_2d_sampler(x, numpy.zeros((1, 18, 2, 2)), W).array
    expected = numpy.zeros((1, 3, 2, 2))
    for p, q in numpy.ndindex(2, 2):
        expected[0, :, p, q] = numpy.tensordot(W, x[0, :, p:p + 3, q:q + 3], axes=3)
    numpy.testing.assert_allclose(y, expected, rtol=1e-12)


def test_bad_shapes_rejected():
    x = numpy.ones((1, 2, 4, 4), numpy.float32)
    W = numpy.ones((3, 2, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"deformable_convolution_2d_sampler: offset.shape=\(1, 18, 3, 3\) "
                                         r"but .* need \(1, 18, 2, 2\)"):
        F.deformable_convolution_2d_sampler(x, numpy.ones((1, 18, 3, 3), numpy.float32), W)
    with pytest.raises(ValueError, match="x has 2 channels but W expects 1"):
        F.deformable_convolution_2d_sampler(x, numpy.ones((1, 18, 2, 2), numpy.float32),
                                            numpy.ones((3, 1, 3, 3), numpy.float32))
    with pytest.raises(TypeError, match="deformable_convolution_2d_sampler: dtypes must match"):
        F.deformable_convolution_2d_sampler(x, numpy.ones((1, 18, 2, 2)), W)


@pytest.mark.gpu
@testing.parameterize(*testing.product({
    "dtype": [numpy.float32], "case": [((2, 1), (1, 0), True)], "device": ["@cupy:0"],
}))
class TestDeformableConvolution2DSamplerGPU(TestDeformableConvolution2DSampler):
    pass
