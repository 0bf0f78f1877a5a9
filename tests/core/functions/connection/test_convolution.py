import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


def _outsize(size, k, s, p, d, cover_all):
    span = (k - 1) * d + 1
    return (size + 2 * p - span + (s - 1 if cover_all else 0)) // s + 1


def convolution_reference(x, W, b, stride, pad, dilate, groups, cover_all=False):
    """Sum over kernel taps of strided slices of the zero-padded input, per group (float64)."""
    nd = x.ndim - 2
    k = W.shape[2:]
    outs = [_outsize(x.shape[2 + i], k[i], stride[i], pad[i], dilate[i], cover_all) for i in range(nd)]
    widths = [(0, 0), (0, 0)] + [(pad[i], pad[i] + stride[i] + (k[i] - 1) * dilate[i]) for i in range(nd)]
    xp = numpy.pad(x.astype(numpy.float64), widths)
    n, c = x.shape[:2]
    o = W.shape[0]
    cg, og = c // groups, o // groups
    y = numpy.zeros((n, o) + tuple(outs))
    for tap in numpy.ndindex(*k):
        window = tuple(slice(t * d, t * d + (m - 1) * s + 1, s)
                       for t, d, m, s in zip(tap, dilate, outs, stride))
        patch = xp[(slice(None), slice(None)) + window]
        for g in range(groups):
            w = W[(slice(g * og, (g + 1) * og), slice(None)) + tap].astype(numpy.float64)
            y[:, g * og:(g + 1) * og] += numpy.einsum("nc...,oc->no...", patch[:, g * cg:(g + 1) * cg], w)
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


@testing.parameterize(*testing.product([
    [
        {"nd": 1, "in_size": (7,), "ksize": (3,), "stride": 2, "pad": 1, "dilate": 1, "groups": 1,
         "cover_all": False},
        {"nd": 2, "in_size": (5, 6), "ksize": (3, 2), "stride": (1, 2), "pad": (1, 0),
         "dilate": (2, 1), "groups": 2, "cover_all": False},
        {"nd": 2, "in_size": (6, 5), "ksize": (3, 3), "stride": 2, "pad": 0, "dilate": 1, "groups": 1,
         "cover_all": True},
        {"nd": 3, "in_size": (4, 3, 4), "ksize": (2, 2, 3), "stride": 1, "pad": (0, 1, 1),
         "dilate": 1, "groups": 1, "cover_all": False},
        # stride 1 with an output larger than x: the x-gradient runs as a flipped-filter convolution
        {"nd": 2, "in_size": (3, 3), "ksize": (3, 3), "stride": 1, "pad": 2, "dilate": 1, "groups": 1,
         "cover_all": False},
        # 16+ channels, stride 1, groups 1: the shifted-GEMM kernels (kusari.utils.conv_shifted)
        {"nd": 2, "in_size": (4, 5), "ksize": (3, 2), "stride": 1, "pad": (1, 2), "dilate": (1, 2),
         "groups": 1, "cover_all": False, "channels": (16, 17)},
    ],
    [{"nobias": False}, {"nobias": True}],
    [{"dtype": numpy.float32}, {"dtype": numpy.float64}],
]))
class TestConvolutionND(testing.FunctionTestCase):
    def generate_inputs(self):
        c, o = getattr(self, "channels", (4, 6))
        x = numpy.random.uniform(-1, 1, (2, c) + self.in_size).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (o, c // self.groups) + self.ksize).astype(self.dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, (o,)).astype(self.dtype)

    def forward(self, inputs, device):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return F.convolution_nd(x, W, b, self.stride, self.pad, self.cover_all, self.dilate,
                                self.groups),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        t = lambda v: v if isinstance(v, tuple) else (v,) * self.nd  # noqa: E731
        y = convolution_reference(x, W, b, t(self.stride), t(self.pad), t(self.dilate), self.groups,
                                  self.cover_all)
        return y.astype(self.dtype),


def _inputs(x_shape, w_shape, dtype=numpy.float32):
    rng = numpy.random.RandomState(0)
    return rng.uniform(-1, 1, x_shape).astype(dtype), rng.uniform(-1, 1, w_shape).astype(dtype)


@pytest.mark.parametrize("nd,fn", [(1, F.convolution_1d), (2, F.convolution_2d),
                                   (3, F.convolution_3d)])
def test_fixed_rank_wrappers_match_nd(nd, fn):
    x, W = _inputs((2, 2) + (5,) * nd, (3, 2) + (2,) * nd)
    numpy.testing.assert_array_equal(fn(x, W, None, 2, 1).array,
                                     F.convolution_nd(x, W, None, 2, 1).array)


def test_convolution_2d_keyword_dilate_and_groups():
    x, W = _inputs((1, 4, 7, 7), (6, 2, 3, 3))
    y = F.convolution_2d(x, W, stride=1, pad=1, dilate=2, groups=2)
    want = convolution_reference(x, W, None, (1, 1), (1, 1), (2, 2), 2)
    numpy.testing.assert_allclose(y.array, want, rtol=1e-5, atol=1e-5)


def test_convolution_2d_rejects_removed_and_unknown_keywords():
    x, W = _inputs((1, 2, 4, 4), (3, 2, 3, 3))
    with pytest.raises(ValueError, match="convolution_2d: .*deterministic argument is not supported"):
        F.convolution_2d(x, W, deterministic=True)
    with pytest.raises(TypeError, match="convolution_2d: .*unexpected keyword argument.*dilation"):
        F.convolution_2d(x, W, dilation=2)


def test_channel_mismatch_message():
    x, W = _inputs((8, 3, 5, 5), (16, 4, 3, 3))
    with pytest.raises(ValueError, match=r"convolution_2d: x has 3 channels but W expects 4 "
                                         r"\(x.shape=\(8, 3, 5, 5\), W.shape=\(16, 4, 3, 3\)\)"):
        F.convolution_2d(x, W)
    with pytest.raises(ValueError, match=r"convolution_nd: x has 3 channels but W expects 8 .*groups=2"):
        F.convolution_nd(x, W, groups=2)


def test_groups_must_divide_output_channels():
    x, W = _inputs((1, 4, 5, 5), (3, 2, 3, 3))
    with pytest.raises(ValueError, match=r"convolution_2d: W.shape\[0\]=3 output channels are not "
                                         r"divisible by groups=2"):
        F.convolution_2d(x, W, groups=2)


def test_rank_dtype_and_bias_errors():
    x, W = _inputs((1, 2, 5, 5), (3, 2, 3, 3))
    with pytest.raises(ValueError, match=r"convolution_1d: x and W must both be 3-dimensional"):
        F.convolution_1d(x, W)
    with pytest.raises(TypeError, match="convolution_2d: x must be a floating-point array"):
        F.convolution_2d(x.astype(numpy.int32), W)
    with pytest.raises(TypeError, match="convolution_2d: dtypes must match"):  # Chainer's rule: b has x's dtype
        F.convolution_2d(x.astype(numpy.float64), W, numpy.zeros(3, numpy.float32))
    with pytest.raises(ValueError, match=r"convolution_2d: b must have shape \(3,\), got b.shape=\(2,\)"):
        F.convolution_2d(x, W, numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match=r"convolution_nd: x must have shape \(N, C, d_1, ..., d_n\)"):
        F.convolution_nd(numpy.zeros((2, 3), numpy.float32), W)


def test_kernel_larger_than_input():
    x, W = _inputs((1, 2, 2, 2), (3, 2, 3, 3))
    with pytest.raises(ValueError, match=r"convolution_2d: the kernel does not fit the input: "
                                         r"output size would be \(0, 0\)"):
        F.convolution_2d(x, W)


@pytest.mark.parametrize("kwargs,message", [
    ({"stride": 0}, r"convolution_2d: stride must be positive, got \(0, 0\)"),
    ({"pad": -1}, r"convolution_2d: pad must be non-negative, got \(-1, -1\)"),
    ({"dilate": (1, 0)}, r"convolution_2d: dilate must be positive, got \(1, 0\)"),
    ({"groups": 0}, r"convolution_2d: groups must be a positive integer, got 0"),
    ({"stride": (1, 1, 1)}, r"convolution_2d: stride must have 2 entries, got \(1, 1, 1\)"),
])
def test_parameter_errors(kwargs, message):
    x, W = _inputs((1, 2, 5, 5), (3, 2, 3, 3))
    with pytest.raises(ValueError, match=message):
        F.convolution_2d(x, W, **kwargs)


def test_gradient_of_input_only_variable():
    # W given as a plain array: only x (and b) receive gradients.
    x, W = _inputs((1, 2, 4, 4), (3, 2, 3, 3))
    xv = kusari.Variable(x)
    y = F.convolution_2d(xv, W, pad=1)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    # d(sum y)/dx at an interior pixel is the sum of all filter taps over output channels
    numpy.testing.assert_allclose(xv.grad[0, :, 1, 1], W.sum(axis=(0, 2, 3)), rtol=1e-5)


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("kwargs", [{}, {"stride": 2, "pad": 1}, {"dilate": 2, "groups": 2}])
def test_array_and_graph_backward_agree_bit_for_bit(bias, kwargs):
    # Plain backward runs the array path; double backprop runs the graph of (de)convolution nodes.
    rng = numpy.random.RandomState(4)
    x = rng.standard_normal((3, 4, 9, 8)).astype(numpy.float32)
    W = rng.standard_normal((6, 4 // kwargs.get("groups", 1), 3, 3)).astype(numpy.float32)
    b = rng.standard_normal(6).astype(numpy.float32) if bias else None
    gy = rng.standard_normal(F.convolution_2d(x, W, **kwargs).shape).astype(numpy.float32)
    grads = []
    for double in (False, True):
        vs = [kusari.Variable(a) for a in (x, W, b) if a is not None]
        y = F.convolution_2d(*vs, **kwargs)
        y.grad = gy
        y.backward(enable_double_backprop=double)
        grads.append([v.grad for v in vs])
    for g_array, g_graph in zip(*grads):
        assert g_array.dtype == numpy.float32
        numpy.testing.assert_array_equal(g_array, g_graph)


def test_no_data_gradient_for_an_input_without_grad(monkeypatch):
    # LeNet's first layer: x is a plain array, so its gradient (a transposed convolution) is skipped.
    from kusari.utils import conv

    def fail(*args, **kwargs):
        raise AssertionError("deconv_forward called for an input that needs no gradient")

    monkeypatch.setattr(conv, "deconv_forward", fail)
    rng = numpy.random.RandomState(0)
    x = rng.standard_normal((2, 1, 6, 6)).astype(numpy.float32)
    W = kusari.Variable(rng.standard_normal((3, 1, 3, 3)).astype(numpy.float32))
    for double in (False, True):
        W.cleargrad()
        y = F.convolution_2d(x, W)
        F.sum(y).backward(enable_double_backprop=double)
        # d(sum y)/dW[o, 0, i, j] is the sum of the input window shifted by (i, j)
        expected = numpy.array([[x[:, 0, i:i + 4, j:j + 4].sum() for j in range(3)] for i in range(3)])
        for o in range(3):
            numpy.testing.assert_allclose(W.grad[o, 0], expected, rtol=1e-5)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("shape", [(4, 6, 5, 3), (2, 3, 7), (0, 2, 3, 3)])
@pytest.mark.parametrize("channels_last", [False, True])
def test_bias_grad_is_the_sum_over_all_but_the_channels(dtype, shape, channels_last):
    from kusari import gradient_check
    from kusari.functions.connection.convolution import bias_grad
    from kusari.onednn import layout
    gy = layout.as_layout(numpy.random.default_rng(0).uniform(-1, 1, shape).astype(dtype),
                          channels_last and len(shape) == 4)
    if channels_last and len(shape) == 4 and shape[0]:
        assert layout.is_channels_last(gy)
    gb = bias_grad(gy)
    assert gb.shape == (shape[1],) and gb.dtype == dtype
    expected = gy.astype(numpy.float64).sum(axis=(0,) + tuple(range(2, len(shape))))
    numpy.testing.assert_allclose(gb.array, expected, rtol=1e-5, atol=1e-5)
    if shape[0]:
        ggb = numpy.random.default_rng(1).uniform(-1, 1, shape[1]).astype(dtype)
        gradient_check.check_backward(bias_grad, gy, ggb, dtype=numpy.float64, atol=1e-4, rtol=1e-4)
