import numpy
import pytest

import kusari
from kusari.utils import blas, conv, conv_shifted

pytestmark = pytest.mark.skipif(not blas.gemm_available(numpy.float32),
                                reason="NumPy does not bundle OpenBLAS here")

# (input spatial, ksize, pad, dilate): 1-d, 2-d with uneven kernels and dilation, 3-d, 1x1.
_CASES = [
    ((11,), (5,), (2,), (2,)),
    ((7, 9), (3, 3), (1, 1), (1, 1)),
    ((6, 8), (2, 3), (0, 2), (2, 1)),
    ((5, 4, 6), (2, 3, 1), (0, 1, 2), (1, 2, 1)),
    ((4, 4), (1, 1), (0, 0), (1, 1)),
]


@pytest.fixture
def numpy_kernels():
    """These are the NumPy kernels' tests: oneDNN stays out."""
    with kusari.using_config("use_onednn", "never"):
        yield


def _im2col_path(monkeypatch):
    monkeypatch.setattr(conv_shifted, "MIN_CHANNELS", 10 ** 9)


@pytest.mark.parametrize("ins,ksize,pad,dilate", _CASES)
@pytest.mark.parametrize("dtype,rtol", [(numpy.float64, 1e-12), (numpy.float32, 2e-5)])
@pytest.mark.parametrize("block_bytes", [conv_shifted.BLOCK_BYTES, 1])  # 1: blocks of 256 grid columns
@pytest.mark.usefixtures("numpy_kernels")
def test_shifted_kernels_match_im2col(monkeypatch, ins, ksize, pad, dilate, dtype, rtol, block_bytes):
    monkeypatch.setattr(conv_shifted, "BLOCK_BYTES", block_bytes)
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((3, 16) + ins).astype(dtype)
    W = rng.standard_normal((17, 16) + ksize).astype(dtype)
    assert conv_shifted.pays(x, W, (1,) * len(ins), 1, 16)
    y = conv.conv_forward(x, W, 1, pad, False, dilate)
    gy = rng.standard_normal(y.shape).astype(dtype)
    gw = conv.conv_weight_grad(x, gy, ksize, 1, pad, False, dilate)
    gx = conv.deconv_forward(gy, W, 1, pad, ins, dilate)
    _im2col_path(monkeypatch)
    wants = (conv.conv_forward(x, W, 1, pad, False, dilate),
             conv.conv_weight_grad(x, gy, ksize, 1, pad, False, dilate),
             conv.deconv_forward(gy, W, 1, pad, ins, dilate))
    for got, want in zip((y, gw, gx), wants):
        assert got.dtype == dtype and got.shape == want.shape and got.flags.c_contiguous
        scale = numpy.abs(want).max()
        numpy.testing.assert_allclose(got / scale, want / scale, rtol=0, atol=rtol)


def test_blocks_cover_the_grid_in_order():
    assert conv_shifted._blocks(600, 4, 4) == [(0, 600)]
    assert conv_shifted._blocks(600, 10 ** 9, 4) == [(0, 256), (256, 512), (512, 600)]


def test_tap_offsets_walk_the_flat_grid():
    # grid (4, 5): tap (i, j) with dilation (2, 1) sits 2 * i rows and j columns away.
    assert conv_shifted.tap_offsets((2, 3), (2, 1), (4, 5)) == [0, 1, 2, 10, 11, 12]


def test_pays_only_where_the_kernels_apply():
    x = numpy.zeros((1, 16, 5, 5), numpy.float32)
    W = numpy.zeros((16, 16, 3, 3), numpy.float32)
    assert conv_shifted.pays(x, W, (1, 1), 1, 16)
    assert not conv_shifted.pays(x, W, (2, 1), 1, 16)  # strided
    assert not conv_shifted.pays(x, W, (1, 1), 2, 16)  # grouped
    assert not conv_shifted.pays(x, W, (1, 1), 1, 8)  # too few channels for thin GEMMs
    assert not conv_shifted.pays(x.astype(numpy.float16), W.astype(numpy.float16), (1, 1), 1, 16)


def test_deconvolution_with_a_larger_outsize_keeps_the_general_path(monkeypatch):
    # Stride 1 implies outsize 7 here; a user-given 8 is not on the shifted grid and must not go there.
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal((2, 16, 5, 5))
    W = rng.standard_normal((16, 16, 3, 3))
    want = conv._deconv_by_col2im(x, W, 1, 0, (8, 8), 1, 1)
    monkeypatch.setattr(conv_shifted, "deconv_forward", lambda *a: pytest.fail("shifted kernel used"))
    numpy.testing.assert_allclose(conv.deconv_forward(x, W, 1, 0, (8, 8)), want, rtol=1e-12)


def test_without_openblas_the_im2col_path_runs(monkeypatch):
    rng = numpy.random.default_rng(2)
    x = rng.standard_normal((2, 16, 6, 6)).astype(numpy.float32)
    W = rng.standard_normal((16, 16, 3, 3)).astype(numpy.float32)
    want = conv.conv_forward(x, W, 1, 1)
    monkeypatch.setattr(blas, "gemm_available", lambda dtype: False)
    monkeypatch.setattr(conv_shifted, "conv_forward", lambda *a: pytest.fail("shifted kernel used"))
    numpy.testing.assert_allclose(conv.conv_forward(x, W, 1, 1), want, rtol=1e-5, atol=1e-5)
