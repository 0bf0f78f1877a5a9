import numpy
import pytest

from kusari.utils import blas

pytestmark = pytest.mark.skipif(not blas.gemm_available(numpy.float32),
                                reason="NumPy does not bundle OpenBLAS here")


@pytest.mark.parametrize("dtype,rtol", [(numpy.float32, 1e-5), (numpy.float64, 1e-13)])
@pytest.mark.parametrize("trans_a,trans_b", [(False, False), (True, False), (False, True), (True, True)])
def test_gemm_matches_matmul_on_strided_and_transposed_views(dtype, rtol, trans_a, trans_b):
    rng = numpy.random.default_rng(0)
    big_a = rng.standard_normal((9, 11)).astype(dtype)
    big_b = rng.standard_normal((13, 13)).astype(dtype)
    a = big_a[2:9, 1:6].T if trans_a else big_a[1:6, 2:9]  # (5, 7), leading dimension 11
    b = big_b[3:12, :7].T if trans_b else big_b[:7, 3:12]  # (7, 9), leading dimension 13
    assert a.shape == (5, 7) and b.shape == (7, 9)
    assert (a.strides[0] == a.itemsize) == trans_a and (b.strides[0] == b.itemsize) == trans_b
    out_buffer = numpy.full((6, 12), numpy.nan, dtype)
    out = out_buffer[1:, 2:11]  # (5, 9) inside a larger buffer
    blas.gemm(a, b, out)  # beta 0 overwrites even NaN
    numpy.testing.assert_allclose(out, a @ b, rtol=rtol, atol=rtol)
    assert numpy.isnan(out_buffer[0]).all() and numpy.isnan(out_buffer[:, :2]).all()
    blas.gemm(a, b, out, beta=1.0)
    numpy.testing.assert_allclose(out, 2 * (a @ b), rtol=rtol, atol=rtol)


def test_gemm_transposed_operands_read_the_right_elements():
    rng = numpy.random.default_rng(1)
    a = rng.standard_normal((4, 6))
    b = rng.standard_normal((5, 6))
    out = numpy.empty((4, 5))
    blas.gemm(a, b.T, out)  # b.T has unit stride along its rows
    numpy.testing.assert_allclose(out, a @ b.T, rtol=1e-13)


def test_gemm_errors_name_the_operand():
    a = numpy.zeros((3, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"gemm: shapes do not chain: a=\(3, 4\) @ b=\(5, 2\)"):
        blas.gemm(a, numpy.zeros((5, 2), numpy.float32), numpy.zeros((3, 2), numpy.float32))
    with pytest.raises(TypeError, match="a=float32, b=float64, out=float32"):
        blas.gemm(a, numpy.zeros((4, 2)), numpy.zeros((3, 2), numpy.float32))
    with pytest.raises(TypeError, match="out=float16"):
        blas.gemm(a.astype(numpy.float16), numpy.zeros((4, 2), numpy.float16), numpy.zeros((3, 2), numpy.float16))
    with pytest.raises(ValueError, match=r"gemm: b \(shape=\(4, 2\), strides=\(16, 8\)\) needs unit stride"):
        blas.gemm(a, numpy.zeros((4, 4), numpy.float32)[:, ::2], numpy.zeros((3, 2), numpy.float32))
    with pytest.raises(ValueError, match="out .* needs unit column stride"):
        blas.gemm(a, numpy.zeros((4, 2), numpy.float32), numpy.zeros((2, 3), numpy.float32).T)


def test_float16_has_no_gemm():
    assert not blas.gemm_available(numpy.float16)
    assert blas.gemm_available(numpy.float64)
