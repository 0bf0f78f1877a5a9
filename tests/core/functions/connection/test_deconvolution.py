import numpy
import pytest

import kusari.functions as F
from kusari import testing


def deconvolution_reference(x, W, b, stride, pad, dilate, groups, outsize):
    """Scatter every input pixel times its filter into a large canvas, then crop (float64)."""
    nd = x.ndim - 2
    k = W.shape[2:]
    ins = x.shape[2:]
    full = [max((ins[i] - 1) * stride[i] + (k[i] - 1) * dilate[i] + 1, pad[i] + outsize[i])
            for i in range(nd)]
    n, c = x.shape[:2]
    cg, og = c // groups, W.shape[1]
    y = numpy.zeros((n, og * groups) + tuple(full))
    for tap in numpy.ndindex(*k):
        window = tuple(slice(t * d, t * d + (m - 1) * s + 1, s)
                       for t, d, m, s in zip(tap, dilate, ins, stride))
        for g in range(groups):
            w = W[(slice(g * cg, (g + 1) * cg), slice(None)) + tap].astype(numpy.float64)
            contrib = numpy.einsum("nc...,co->no...", x[:, g * cg:(g + 1) * cg].astype(numpy.float64), w)
            y[(slice(None), slice(g * og, (g + 1) * og)) + window] += contrib
    y = y[(slice(None), slice(None)) + tuple(slice(p, p + o) for p, o in zip(pad, outsize))]
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


def _default_outsize(ins, k, s, p, d):
    return tuple((i - 1) * s_ + (k_ - 1) * d_ + 1 - 2 * p_ for i, k_, s_, p_, d_ in zip(ins, k, s, p, d))


@testing.parameterize(*testing.product([
    [
        {"nd": 1, "in_size": (4,), "ksize": (3,), "stride": (2,), "pad": (1,), "dilate": (1,),
         "groups": 1, "outsize": None},
        {"nd": 2, "in_size": (3, 4), "ksize": (3, 2), "stride": (2, 1), "pad": (1, 0),
         "dilate": (1, 2), "groups": 2, "outsize": None},
        # along axis 1, x is a cover_all-sized (not a plain) convolution of the (6, 6) output
        {"nd": 2, "in_size": (3, 3), "ksize": (3, 3), "stride": (2, 2), "pad": (1, 0),
         "dilate": (1, 1), "groups": 1, "outsize": (6, 6)},
        {"nd": 3, "in_size": (2, 3, 2), "ksize": (2, 2, 2), "stride": (1, 2, 1), "pad": (0, 1, 0),
         "dilate": (1, 1, 1), "groups": 1, "outsize": None},
        # stride 1: computed as a convolution with the flipped filter (grouped; then x cropped)
        {"nd": 2, "in_size": (4, 5), "ksize": (3, 3), "stride": (1, 1), "pad": (1, 1),
         "dilate": (1, 1), "groups": 2, "outsize": None},
        {"nd": 2, "in_size": (4, 4), "ksize": (2, 3), "stride": (1, 1), "pad": (2, 0),
         "dilate": (1, 2), "groups": 1, "outsize": None},
        # 16+ channels, stride 1, groups 1: the shifted-GEMM kernels (kusari.utils.conv_shifted)
        {"nd": 2, "in_size": (3, 4), "ksize": (2, 3), "stride": (1, 1), "pad": (1, 1),
         "dilate": (2, 1), "groups": 1, "outsize": None, "channels": (16, 17)},
    ],
    [{"nobias": False}, {"nobias": True}],
    [{"dtype": numpy.float32}, {"dtype": numpy.float64}],
]))
class TestDeconvolutionND(testing.FunctionTestCase):
    def generate_inputs(self):
        c, o = getattr(self, "channels", (4, 6))
        x = numpy.random.uniform(-1, 1, (2, c) + self.in_size).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (c, o // self.groups) + self.ksize).astype(self.dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, (o,)).astype(self.dtype)

    def forward(self, inputs, device):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return F.deconvolution_nd(x, W, b, self.stride, self.pad, self.outsize, self.dilate,
                                  self.groups),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        outsize = self.outsize or _default_outsize(self.in_size, self.ksize, self.stride, self.pad,
                                                   self.dilate)
        y = deconvolution_reference(x, W, b, self.stride, self.pad, self.dilate, self.groups, outsize)
        return y.astype(self.dtype),


def _inputs(x_shape, w_shape):
    rng = numpy.random.RandomState(0)
    return (rng.uniform(-1, 1, x_shape).astype(numpy.float32),
            rng.uniform(-1, 1, w_shape).astype(numpy.float32))


@pytest.mark.parametrize("nd,fn", [(1, F.deconvolution_1d), (2, F.deconvolution_2d),
                                   (3, F.deconvolution_3d)])
def test_fixed_rank_wrappers_match_nd(nd, fn):
    x, W = _inputs((2, 2) + (3,) * nd, (2, 3) + (2,) * nd)
    numpy.testing.assert_array_equal(fn(x, W, None, 2, 1).array,
                                     F.deconvolution_nd(x, W, None, 2, 1).array)


def test_deconvolution_2d_keyword_dilate_and_groups():
    x, W = _inputs((1, 4, 3, 3), (4, 1, 2, 2))
    y = F.deconvolution_2d(x, W, stride=2, dilate=2, groups=2)
    want = deconvolution_reference(x, W, None, (2, 2), (0, 0), (2, 2), 2, (7, 7))
    numpy.testing.assert_allclose(y.array, want, rtol=1e-5, atol=1e-5)
    with pytest.raises(TypeError, match="deconvolution_2d: .*unexpected keyword argument"):
        F.deconvolution_2d(x, W, cover_all=True)


def test_is_adjoint_of_convolution():
    x, W = _inputs((2, 3, 4, 5), (3, 2, 3, 3))
    z = numpy.random.RandomState(1).uniform(-1, 1, (2, 2, 8, 9)).astype(numpy.float32)
    y = F.deconvolution_2d(x, W, stride=2, pad=1, outsize=(8, 9))
    back = F.convolution_2d(z, W, stride=2, pad=1)
    assert back.shape == x.shape
    numpy.testing.assert_allclose((y.array * z).sum(), (x * back.array).sum(), rtol=1e-4)


def test_inconsistent_outsize():
    x, W = _inputs((1, 2, 3, 3), (2, 2, 3, 3))
    with pytest.raises(ValueError, match=r"deconvolution_2d: outsize=\(9, 5\) does not match "
                                         r"x.shape\[2:\]=\(3, 3\)"):
        F.deconvolution_2d(x, W, stride=2, outsize=(9, 5))


def test_channel_and_bias_errors():
    x, W = _inputs((1, 3, 3, 3), (2, 2, 3, 3))
    with pytest.raises(ValueError, match=r"deconvolution_2d: x has 3 channels but W expects 2 "
                                         r"\(x.shape=\(1, 3, 3, 3\), W.shape=\(2, 2, 3, 3\)\)"):
        F.deconvolution_2d(x, W)
    x, W = _inputs((1, 2, 3, 3), (2, 2, 3, 3))
    with pytest.raises(ValueError, match=r"deconvolution_nd: b must have shape \(4,\)"):
        F.deconvolution_nd(x, W, numpy.zeros(2, numpy.float32), groups=2)
    with pytest.raises(ValueError, match=r"deconvolution_2d: W.shape\[0\]=2 input channels are not "
                                         r"divisible by groups=3"):
        F.deconvolution_2d(x, W, groups=3)


def test_output_size_not_positive():
    x, W = _inputs((1, 2, 1, 1), (2, 2, 1, 1))
    with pytest.raises(ValueError, match=r"deconvolution_2d: the output size would be \(-1, -1\)"):
        F.deconvolution_2d(x, W, pad=1)
