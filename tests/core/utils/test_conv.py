import itertools

import numpy
import pytest

from kusari.onednn import layout
from kusari.utils import conv


def test_conv_outsize_hand_computed():
    # (5 + 2*1 - 3) // 2 + 1 = 3 windows; cover_all adds none since they already reach the end
    assert conv.get_conv_outsize(5, 3, 2, 1) == 3
    assert conv.get_conv_outsize(5, 3, 2, 1, cover_all=True) == 3
    # (6 - 3) // 2 + 1 = 2 leaves the last pixel uncovered; cover_all adds a third window
    assert conv.get_conv_outsize(6, 3, 2, 0) == 2
    assert conv.get_conv_outsize(6, 3, 2, 0, cover_all=True) == 3
    # dilation 2 spreads a 3-tap kernel over 5 pixels: 7 - 5 + 1 = 3
    assert conv.get_conv_outsize(7, 3, 1, 0, d=2) == 3


def test_deconv_outsize_inverts_conv_outsize():
    for size, k, s, p, d in itertools.product([4, 5], [1, 3], [1, 2, 3], [0, 1], [1, 2]):
        out = conv.get_deconv_outsize(size, k, s, p, d=d)
        if out > 0:
            assert conv.get_conv_outsize(out, k, s, p, d=d) == size


def test_as_tuple_and_flags():
    assert conv.as_tuple(2, 3) == (2, 2, 2)
    assert conv.as_tuple([1, 2], 2) == (1, 2)
    assert conv.as_flags(True, 2) == (True, True)
    assert conv.as_flags((False, True), 2) == (False, True)
    with pytest.raises(ValueError, match=r"f: stride must have 2 entries, got \(1, 2, 3\)"):
        conv.as_tuple((1, 2, 3), 2, "f", "stride")


@pytest.mark.parametrize("ksize,stride,pad,dilate,cover_all", [
    ((3, 2), (1, 1), (0, 0), (1, 1), False),
    ((3, 3), (2, 1), (1, 2), (1, 2), False),
    ((2, 3), (3, 2), (1, 0), (2, 1), True),
])
def test_im2col_matches_explicit_indexing(ksize, stride, pad, dilate, cover_all):
    x = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 7, 6))
    col = conv.im2col(x, ksize, stride, pad, pval=-5.0, cover_all=cover_all, dilate=dilate)
    n, c, kh, kw, oh, ow = col.shape
    assert (kh, kw) == ksize
    h, w = x.shape[2:]
    for i, j, y, z in itertools.product(range(kh), range(kw), range(oh), range(ow)):
        r = y * stride[0] + i * dilate[0] - pad[0]
        q = z * stride[1] + j * dilate[1] - pad[1]
        want = x[:, :, r, q] if 0 <= r < h and 0 <= q < w else numpy.full((n, c), -5.0)
        numpy.testing.assert_array_equal(col[:, :, i, j, y, z], want)
    # the last window starts inside the padded image; with cover_all it must reach the last pixel
    if cover_all:
        assert (oh - 1) * stride[0] + (kh - 1) * dilate[0] - pad[0] >= h - 1


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_col2im_is_adjoint_of_im2col(nd):
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, (2, 2) + (5,) * nd)
    ksize, stride, pad, dilate = (2,) * nd, (2,) * nd, (1,) * nd, (1,) + (2,) * (nd - 1)
    col = conv.im2col(x, ksize, stride, pad, dilate=dilate, cover_all=True)
    c = rng.uniform(-1, 1, col.shape)
    back = conv.col2im(c, stride, pad, x.shape[2:], dilate)
    assert back.shape == x.shape
    numpy.testing.assert_allclose((col * c).sum(), (x * back).sum(), rtol=1e-12)


def test_im2col_rejects_windows_larger_than_the_input():
    with pytest.raises(ValueError, match="im2col: windows of size"):
        conv.im2col(numpy.zeros((1, 1, 2, 2)), 3, 1, 0)


# Stride-1 transposed convolutions: (x spatial, ksize, pad, dilate, groups, extra output length).
# The extra length asks for a larger output than the default; pad > (k - 1) * dilate crops.
_STRIDE1_DECONVS = [
    ((5, 6), (3, 3), (1, 1), (1, 1), 1, (0, 0)),
    ((4, 5), (3, 2), (0, 1), (2, 1), 2, (0, 0)),
    ((6, 4), (2, 3), (2, 0), (1, 2), 1, (0, 0)),
    ((7,), (3,), (1,), (1,), 1, (0,)),
    ((3, 3, 4), (2, 2, 3), (0, 1, 1), (1, 1, 1), 1, (0, 0, 0)),
    ((4, 4), (3, 3), (1, 0), (1, 1), 1, (1, 1)),
]


def _rand(rng, *shape, dtype=numpy.float64):
    return rng.uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize("ins,ksize,pad,dilate,groups,extra", _STRIDE1_DECONVS)
@pytest.mark.parametrize("dtype,rtol", [(numpy.float64, 1e-12), (numpy.float32, 1e-5)])
def test_stride1_deconv_algorithms_agree(ins, ksize, pad, dilate, groups, extra, dtype, rtol):
    rng = numpy.random.RandomState(2)
    x = _rand(rng, 2, 2 * groups, *ins, dtype=dtype)
    W = _rand(rng, 2 * groups, 3, *ksize, dtype=dtype)
    outsize = tuple(conv.get_deconv_outsize(i, k, 1, p, d=d) + e
                    for i, k, p, d, e in zip(ins, ksize, pad, dilate, extra))
    want = conv._deconv_by_col2im(x, W, 1, pad, outsize, dilate, groups)
    assert want.shape == (2, 3 * groups) + outsize
    for got in (conv._deconv_as_conv(x, W, pad, outsize, dilate, groups),
                conv._deconv_by_flat_col2im(x, W, pad, outsize, dilate, groups)):
        # row-major, or channels-last where oneDNN writes the convolution (3 channels and more)
        assert got.dtype == dtype and (got.flags.c_contiguous or layout.is_channels_last(got))
        numpy.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("channels", [(2, 5), (5, 2)])
@pytest.mark.parametrize("ins,ksize,stride,pad,dilate,groups", [
    ((6, 7), (3, 3), (1, 1), (1, 1), (1, 1), 1),
    ((8, 5), (3, 2), (2, 1), (1, 0), (1, 2), 1),
    ((6, 6), (3, 3), (1, 1), (2, 0), (1, 1), 1),
    ((9,), (2,), (3,), (1,), (2,), 1),
])
def test_conv_gemms_are_adjoint(channels, ins, ksize, stride, pad, dilate, groups):
    # <conv(x, W), gy> = <x, deconv(gy, W)> = <W, weight_grad(x, gy)>: the three GEMMs are one
    # bilinear form, whichever deconvolution algorithm the shapes select.
    c, o = channels
    rng = numpy.random.RandomState(3)
    x, W = _rand(rng, 3, c, *ins), _rand(rng, o, c // groups, *ksize)
    y = conv.conv_forward(x, W, stride, pad, False, dilate, groups)
    gy = _rand(rng, *y.shape)
    gx = conv.deconv_forward(gy, W, stride, pad, ins, dilate, groups)
    gw = conv.conv_weight_grad(x, gy, ksize, stride, pad, False, dilate, groups)
    assert gx.shape == x.shape and gw.shape == W.shape
    form = (y * gy).sum()
    numpy.testing.assert_allclose((x * gx).sum(), form, rtol=1e-12)
    numpy.testing.assert_allclose((W * gw).sum(), form, rtol=1e-12)


def test_conv_forward_matches_explicit_dot_products():
    rng = numpy.random.RandomState(4)
    x, W = _rand(rng, 2, 4, 5, 6), _rand(rng, 6, 2, 2, 3)  # two groups
    y = conv.conv_forward(x, W, (2, 1), (1, 0), False, (2, 1), 2)
    xpad = numpy.pad(x, ((0, 0), (0, 0), (1, 1), (0, 0)))
    assert y.shape == (2, 6, 3, 4)
    for n, oc, i, j in itertools.product(range(2), range(6), range(3), range(4)):
        g = oc // 3
        patch = xpad[n, 2 * g:2 * g + 2, 2 * i:2 * i + 3:2, j:j + 3]
        numpy.testing.assert_allclose(y[n, oc, i, j], (patch * W[oc]).sum(), rtol=1e-12)


def test_deconv_forward_picks_the_smaller_patch_array(monkeypatch):
    calls = []
    monkeypatch.setattr(conv, "_deconv_as_conv", lambda *a: calls.append("conv"))
    monkeypatch.setattr(conv, "_deconv_by_flat_col2im", lambda *a: calls.append("flat"))
    monkeypatch.setattr(conv, "_deconv_by_col2im", lambda *a: calls.append("col2im"))
    x = numpy.zeros((1, 8, 4, 4))
    conv.deconv_forward(x, numpy.zeros((8, 8, 3, 3)), 1, 1, (4, 4))  # 8 * 16 <= 8 * 16
    conv.deconv_forward(x, numpy.zeros((8, 2, 3, 3)), 1, 1, (4, 4))  # 8 * 16 > 2 * 16
    conv.deconv_forward(x, numpy.zeros((8, 8, 3, 3)), 2, 1, (7, 7))  # stride 2
    assert calls == ["conv", "flat", "col2im"]
