"""Mixed float dtypes, Chainer's rule: ops with parameters return x's dtype, products of two inputs the
promoted dtype, and every gradient comes back in its own input's dtype (utils.cast_like)."""
import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import gradient_check
from kusari.functions.math.sparse_matmul import CooMatMul
from kusari.utils.sparse import to_coo

F16, F32, F64 = numpy.float16, numpy.float32, numpy.float64
PAIRS = [(a, b) for a in (F16, F32, F64) for b in (F16, F32, F64) if a != b]


def _u(shape, dtype, seed, low=-1.0, high=1.0):
    return numpy.random.RandomState(seed).uniform(low, high, shape).astype(dtype)


# name: (function of (x, *params), x shape, parameter shapes, indices of the parameters that take x's dtype (Chainer
# refuses them in another), whether it is a product of two inputs (promoted) rather than x with parameters)
OPS = {
    "linear": (lambda x, W, b: F.linear(x, W, b), (3, 4), [(2, 4), (2,)], {1}, False),
    "convolution_2d": (lambda x, W, b: F.convolution_2d(x, W, b, pad=1),
                       (2, 3, 4, 4), [(4, 3, 3, 3), (4,)], {1}, False),
    "convolution_nd": (lambda x, W, b: F.convolution_nd(x, W, b), (2, 3, 4), [(4, 3, 2), (4,)], set(), False),
    "deconvolution_2d": (lambda x, W, b: F.deconvolution_2d(x, W, b, stride=2),
                         (2, 3, 3, 3), [(3, 2, 2, 2), (2,)], {1}, False),
    "deconvolution_nd": (lambda x, W, b: F.deconvolution_nd(x, W, b), (2, 3, 4), [(3, 2, 2), (2,)], set(), False),
    "depthwise_convolution_2d": (lambda x, W, b: F.depthwise_convolution_2d(x, W, b),
                                 (2, 3, 4, 4), [(2, 3, 2, 2), (6,)], {1}, False),
    "dilated_convolution_2d": (lambda x, W, b: F.dilated_convolution_2d(x, W, b, dilate=2),
                               (2, 3, 5, 5), [(4, 3, 2, 2), (4,)], {1}, False),
    "local_convolution_2d": (lambda x, W, b: F.local_convolution_2d(x, W, b),
                             (2, 3, 4, 4), [(2, 3, 3, 3, 2, 2), (2, 3, 3)], {1}, False),
    "simplified_dropconnect": (lambda x, W, b: F.simplified_dropconnect(x, W, b, train=False),
                               (3, 4), [(2, 4), (2,)], {1}, False),
    "batch_normalization": (lambda x, g, b: F.batch_normalization(x, g, b), (5, 3, 2), [(3,), (3,)], set(), False),
    "fixed_batch_normalization": (
        lambda x, g, b, m, v: F.fixed_batch_normalization(x, g, b, m, v),
        (5, 3, 2), [(3,), (3,), (3,), (3,)], set(), False),
    "group_normalization": (lambda x, g, b: F.group_normalization(x, 3, g, b), (2, 6, 3), [(6,), (6,)], set(),
                            False),
    "matmul": (lambda a, b: F.matmul(a, b), (3, 4), [(4, 2)], set(), True),
    "tensordot": (lambda a, b: F.tensordot(a, b, axes=1), (3, 4), [(4, 2)], set(), True),
}


def _inputs(name, x_dtype, p_dtype):
    _, x_shape, p_shapes, like_x, _ = OPS[name]
    x = _u(x_shape, x_dtype, 0)
    params = [_u(s, x_dtype if i in like_x else p_dtype, i + 1) for i, s in enumerate(p_shapes)]
    if name == "fixed_batch_normalization":
        params[3] = _u(p_shapes[3], p_dtype, 4, low=0.5, high=1.5)  # a variance
    return x, params


@pytest.mark.parametrize("x_dtype,p_dtype", PAIRS)
@pytest.mark.parametrize("name", sorted(OPS))
def test_output_dtype_values_and_gradient_dtypes(name, x_dtype, p_dtype):
    func, _, _, _, product = OPS[name]
    x, params = _inputs(name, x_dtype, p_dtype)
    out_dtype = numpy.promote_types(x_dtype, p_dtype) if product else numpy.dtype(x_dtype)
    xv, pvs = kusari.Variable(x), [kusari.Variable(p) for p in params]
    y = func(xv, *pvs)
    assert y.dtype == out_dtype
    # the same op on inputs cast beforehand gives the same values
    compute = numpy.promote_types(x_dtype, p_dtype) if product or name.endswith("normalization") else out_dtype
    want = func(x.astype(compute), *[p.astype(compute) for p in params]).array.astype(out_dtype)
    tol = {"rtol": 1e-2, "atol": 1e-2} if out_dtype == F16 else {"rtol": 1e-5, "atol": 1e-6}
    numpy.testing.assert_allclose(y.array.astype(F64), want.astype(F64), **tol)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert xv.grad.dtype == x_dtype
    for p, v in zip(params, pvs):
        assert v.grad is not None and v.grad.dtype == p.dtype, (v.grad, p.dtype)


@pytest.mark.parametrize("x_dtype,p_dtype", [(F64, F32), (F32, F64)])
@pytest.mark.parametrize("name", sorted(OPS))
def test_numerical_gradient(name, x_dtype, p_dtype):
    func, *_ = OPS[name]
    x, params = _inputs(name, x_dtype, p_dtype)
    y = func(x, *params)
    gy = _u(y.shape, y.dtype, 9)
    gradient_check.check_backward(func, (x, *params), gy, atol=1e-3, rtol=1e-3)


@pytest.mark.parametrize("x_dtype,p_dtype", [(F64, F32), (F32, F64), (F16, F32)])
@pytest.mark.parametrize("transposed", [False, True])
def test_sparse_matmul_promotes(x_dtype, p_dtype, transposed):
    sparse = _u((3, 4), x_dtype, 0)
    sparse[sparse < 0] = 0
    dense = kusari.Variable(_u((3, 2) if transposed else (4, 2), p_dtype, 1))
    coo = to_coo(sparse, requires_grad=True)
    y = F.sparse_matmul(coo, dense, transa=transposed)
    promoted = numpy.promote_types(x_dtype, p_dtype)
    assert y.dtype == promoted
    product = (sparse.T if transposed else sparse).astype(F64) @ dense.array.astype(F64)
    numpy.testing.assert_allclose(y.array, product, rtol=1e-2 if promoted == F16 else 1e-5)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert dense.grad.dtype == p_dtype and coo.data.grad.dtype == x_dtype
    if F16 not in (x_dtype, p_dtype):  # float16 inputs are too coarse for a numerical derivative
        def op(data, d):  # the node itself, as Chainer's tests build it
            return CooMatMul(coo.row, coo.col, coo.shape, transa=transposed).apply((data, d))[0]
        gy = _u(y.shape, promoted, 9)
        gradient_check.check_backward(op, (coo.data.array, dense.array), gy, atol=1e-3, rtol=1e-3)
        gradient_check.check_double_backward(op, (coo.data.array, dense.array), gy,
                                             (_u(coo.data.shape, x_dtype, 7), _u(dense.shape, p_dtype, 8)),
                                             atol=1e-3, rtol=1e-3)


@pytest.mark.parametrize("name,message", [
    ("linear", "linear: dtypes must match"),
    ("convolution_2d", "convolution_2d: dtypes must match"),
    ("deconvolution_2d", "deconvolution_2d: dtypes must match"),
    ("local_convolution_2d", "local_convolution_2d: dtypes must match"),
    ("simplified_dropconnect", "simplified_dropconnect: dtypes must match"),
])
def test_bias_of_another_dtype_than_x_is_refused_as_in_chainer(name, message):
    func, *_ = OPS[name]
    x, (W, b) = _inputs(name, F32, F32)
    with pytest.raises(TypeError, match=message):
        func(x, W, b.astype(F64))


@pytest.mark.parametrize("name", ["convolution_nd", "deconvolution_nd"])
def test_nd_forms_take_a_bias_of_another_dtype_as_chainer_did(name):
    func, *_ = OPS[name]
    x, (W, b) = _inputs(name, F32, F32)
    bv = kusari.Variable(b.astype(F64))
    y = func(x, W, bv)
    assert y.dtype == F32
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert bv.grad.dtype == F64


@pytest.mark.parametrize("name", ["linear", "convolution_2d", "deconvolution_nd", "batch_normalization"])
def test_onednn_and_numpy_paths_agree_on_mixed_inputs(name):
    """The cast happens before the op, so oneDNN (float32 only) sees one dtype or declines."""
    func, *_ = OPS[name]
    results = []
    for x_dtype, p_dtype in [(F32, F64), (F64, F32), (F16, F32)]:
        x, params = _inputs(name, x_dtype, p_dtype)
        for mode in ("always", "never"):
            with kusari.using_config("use_onednn", mode):
                xv, pvs = kusari.Variable(x), [kusari.Variable(p) for p in params]
                y = func(xv, *pvs)
                y.grad = numpy.ones_like(y.array)
                y.backward()
                results.append([y.array, xv.grad] + [v.grad for v in pvs])
        tol = 1e-2 if x_dtype == F16 else 1e-5
        for always, never in zip(results[-2], results[-1]):
            assert always.dtype == never.dtype
            numpy.testing.assert_allclose(always.astype(F64), never.astype(F64), rtol=tol, atol=tol)


def test_integer_parameter_is_still_refused():
    with pytest.raises(TypeError, match="linear: W must be a floating-point array"):
        F.linear(numpy.ones((2, 3), F32), numpy.ones((4, 3), numpy.int32))
