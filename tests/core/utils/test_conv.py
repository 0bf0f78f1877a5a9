import itertools

import numpy
import pytest

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
