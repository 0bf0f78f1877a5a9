"""oneDNN's GEMM under linear: the product itself (transposes, bias, strided rows) against NumPy, linear's
forward, gradients and double backprop on it (small shapes, with the size threshold lowered), and which
products go to it."""
import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import gradient_check, onednn
from kusari.onednn import gemm

pytestmark = pytest.mark.skipif(not onednn.available(), reason="oneDNN is not installed (kusari[onednn])")


def _uniform(shape, seed):
    return numpy.random.default_rng(seed).uniform(-1, 1, shape).astype(numpy.float32)


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
@pytest.mark.parametrize("with_bias", [False, True])
def test_matmul_matches_numpy(transpose_a, transpose_b, with_bias):
    m, k, n = 5, 7, 3
    a = _uniform((k, m) if transpose_a else (m, k), 0)
    b = _uniform((n, k) if transpose_b else (k, n), 1)
    bias = _uniform((n,), 2) if with_bias else None
    y = gemm.matmul(onednn.library_for(a), a, b, transpose_a, transpose_b, bias=bias)
    expected = (a.T if transpose_a else a) @ (b.T if transpose_b else b) + (0 if bias is None else bias)
    assert y.dtype == numpy.float32 and y.shape == (m, n) and y.flags.c_contiguous
    numpy.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


def test_matmul_reads_strided_rows_and_copies_other_layouts():
    wide = _uniform((6, 10), 0)
    rows = wide[:, 2:7]            # unit-stride rows, 10 apart: read in place
    columns = _uniform((4, 10), 1)[:, ::2].T   # (5, 4) with unit-stride columns: copied first
    lib = onednn.library_for(wide)
    numpy.testing.assert_allclose(gemm.matmul(lib, rows, columns), rows @ columns, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(gemm.matmul(lib, rows, rows, transpose_b=True), rows @ rows.T, rtol=1e-5,
                                  atol=1e-6)


def test_pays():
    assert gemm.pays(2600, 650, 20) and gemm.pays(100, 1000, 1000)
    assert not gemm.pays(256, 256, 256)       # no operand of MIN_OPERAND elements
    assert not gemm.pays(1, 1000, 1000)       # a batch of one
    assert not gemm.pays(100, 10, 1000)       # ten classes
    assert not gemm.pays(64, 64, 64)          # too small to repay the call


@pytest.fixture
def any_size(monkeypatch):
    """Every product pays: small shapes exercise oneDNN."""
    monkeypatch.setattr(gemm, "MIN_PRODUCT", 1)
    monkeypatch.setattr(gemm, "MIN_SIDE", 1)
    monkeypatch.setattr(gemm, "MIN_OPERAND", 1)


def _linear_all(x, W, b, gy_seed=3):
    xv, Wv, bv = (kusari.Variable(a.copy()) for a in (x, W, b))
    y = F.linear(xv, Wv, bv)
    y.grad = _uniform(y.shape, gy_seed)
    y.backward()
    return y, xv.grad, Wv.grad, bv.grad


@pytest.mark.usefixtures("any_size")
def test_linear_matches_numpy(compare, count_calls):
    calls = count_calls(gemm, "matmul")
    x, W, b = _uniform((4, 6), 0), _uniform((5, 6), 1), _uniform((5,), 2)
    fast, reference = compare.run_both(lambda: _linear_all(x, W, b))
    compare.assert_close(fast, reference)
    assert calls == ["matmul"] * 3   # y, gx and gW


@pytest.mark.usefixtures("any_size")
def test_linear_with_more_batch_axes_matches_numpy(compare, count_calls):
    calls = count_calls(gemm, "matmul")
    x, W = _uniform((2, 3, 4), 0), _uniform((5, 4), 1)

    def compute():
        xv, Wv = kusari.Variable(x.copy()), kusari.Variable(W.copy())
        y = F.linear(xv, Wv, n_batch_axes=2)
        F.sum(y * y).backward()
        return y, xv.grad, Wv.grad
    fast, reference = compare.run_both(compute)
    compare.assert_close(fast, reference)
    assert len(calls) == 3


@pytest.mark.usefixtures("any_size")
def test_linear_double_backprop_matches_numpy(compare):
    x, W, b = _uniform((4, 6), 0), _uniform((5, 6), 1), _uniform((5,), 2)

    def compute():
        xv, Wv, bv = (kusari.Variable(a.copy()) for a in (x, W, b))
        y = F.linear(xv, Wv, bv)
        gx, gW = kusari.grad([F.sum(F.tanh(y))], [xv, Wv], enable_double_backprop=True)
        F.sum(gx * gx + F.sum(gW * gW)).backward()
        return gx, gW, xv.grad, Wv.grad, bv.grad
    fast, reference = compare.run_both(compute)
    compare.assert_close(fast, reference, rtol=2e-4)


@pytest.mark.usefixtures("any_size")
def test_linear_gradients_numerically():
    x, W, b = _uniform((3, 4), 0), _uniform((2, 4), 1), _uniform((2,), 2)
    gy, ggs = _uniform((3, 2), 3), tuple(_uniform(a.shape, 4 + i) for i, a in enumerate((x, W, b)))
    with kusari.using_config("use_onednn", "always"):
        gradient_check.check_backward(F.linear, (x, W, b), gy, eps=1e-2, atol=5e-3, rtol=5e-3)
        gradient_check.check_double_backward(F.linear, (x, W, b), gy, ggs, eps=1e-2, atol=5e-3, rtol=5e-3)


@pytest.mark.parametrize("mode", ["auto", "always"])
def test_onednn_takes_large_float32_products_only(mode, count_calls):
    calls = count_calls(gemm, "matmul")
    with kusari.using_config("use_onednn", mode):
        F.linear(_uniform((64, 1024), 0), _uniform((1024, 1024), 1))
        assert calls == ["matmul"]
        if mode == "auto":
            F.linear(_uniform((256, 256), 0), _uniform((256, 256), 1))      # no operand of MIN_OPERAND
        F.linear(_uniform((1, 1024), 0), _uniform((1024, 1024), 1))              # a batch of one
        F.linear(_uniform((64, 1024), 0).astype(numpy.float64), _uniform((1024, 1024), 1).astype(numpy.float64))
        assert calls == ["matmul"]
    with kusari.using_config("use_onednn", "never"):
        F.linear(_uniform((64, 1024), 0), _uniform((1024, 1024), 1))
        assert calls == ["matmul"]
