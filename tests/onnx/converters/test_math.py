"""Export of the math converters (arithmetic, elementwise, matmul, reductions) run in ONNX Runtime."""
import numpy
import pytest

import kusari.functions as F

rng = numpy.random.default_rng(1)


def _x(*shape, low=-2.0, high=2.0):
    return lambda n: (rng.uniform(low, high, (n,) + shape).astype(numpy.float32),)


def _xy(*shape):
    return lambda n: (rng.uniform(-2, 2, (n,) + shape).astype(numpy.float32),
                      rng.uniform(0.5, 2, (n,) + shape).astype(numpy.float32))


B = rng.uniform(0.5, 2, (4,)).astype(numpy.float32)
M = rng.standard_normal((4, 5)).astype(numpy.float32)
CASES = {
    "add": (lambda a, b: F.add(a, b, a), _xy(3, 4)),
    "arithmetic": (lambda a, b: ((a + b) * a - b / a ** 2 + 2.0 * a - 1.5 / b + (3.0 - a) + b ** numpy.float32(1.5)
                                 + abs(-a) + 2.0 ** b + a ** b + B + a / 2.0),
                   lambda n: (rng.uniform(0.5, 2, (n, 3, 4)).astype(numpy.float32),
                              rng.uniform(0.5, 2, (n, 3, 4)).astype(numpy.float32))),
    "absolute": (F.absolute, _x(3)),
    "exp": (F.exp, _x(3)), "log": (F.log, _x(3, low=0.1)), "log2": (F.log2, _x(3, low=0.1)),
    "log10": (F.log10, _x(3, low=0.1)), "expm1": (F.expm1, _x(3)), "log1p": (F.log1p, _x(3, low=0.1)),
    "sqrt": (F.sqrt, _x(3, low=0.1)), "rsqrt": (F.rsqrt, _x(3, low=0.1)), "square": (F.square, _x(3)),
    "erf": (F.erf, _x(3)), "erfc": (F.erfc, _x(3)), "ndtr": (F.ndtr, _x(3)),
    "fmod": (F.fmod, lambda n: (rng.uniform(-5, 5, (n, 3)).astype(numpy.float32),
                                rng.choice([-1.5, 0.7, 2.0], (n, 3)).astype(numpy.float32))),
    "tensordot": (lambda a, b: F.tensordot(a, b, axes=((1, 2), (2, 1))), _xy(3, 3)),
    "sin": (F.sin, _x(3)), "cos": (F.cos, _x(3)), "tan": (F.tan, _x(3, low=-1, high=1)),
    "arcsin": (F.arcsin, _x(3, low=-0.9, high=0.9)), "arccos": (F.arccos, _x(3, low=-0.9, high=0.9)),
    "arctan": (F.arctan, _x(3)), "sinh": (F.sinh, _x(3)), "cosh": (F.cosh, _x(3)),
    "arctanh": (F.arctanh, _x(3, low=-0.9, high=0.9)),
    "maximum": (F.maximum, _xy(3)), "minimum": (F.minimum, _xy(3)),
    "squared_difference": (F.squared_difference, _xy(3)),
    "clip": (lambda x: F.clip(x, -0.5, 1.0), _x(3)),
    "linear_interpolate": (lambda a, b: F.linear_interpolate(F.sigmoid(a), a, b), _xy(3)),
    "identity": (F.identity, _x(3)),
    "matmul": (lambda x: F.matmul(x, M), _x(4)),
    "batch_matmul": (lambda a, b: F.batch_matmul(a, b, transb=True), _xy(3, 4)),
    "sum": (lambda x: F.sum(x, axis=(1, 2), keepdims=True), _x(3, 4)),
    "max": (lambda x: F.max(x, axis=2), _x(3, 4)),
    "min": (lambda x: F.min(x, axis=-1, keepdims=True), _x(3, 4)),
    "logsumexp": (lambda x: F.logsumexp(x, axis=1), _x(3, 4, low=-50, high=50)),
    "argmax": (lambda x: F.argmax(x, axis=1), _x(5)),
    "prod": (lambda x: F.prod(x, axis=1), _x(3, 4)),
    "cumsum": (lambda x: F.cumsum(x, axis=2), _x(3, 4)),
    "einsum": (lambda a, b: F.einsum("bij,bkj->bik", a, b), _xy(3, 4)),
    "batch_l2_norm_squared": (F.batch_l2_norm_squared, _x(3, 4)),
    "argmin": (lambda x: F.argmin(x, axis=1), _x(5)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_math_matches_onnxruntime(name, check):
    func, make_inputs = CASES[name]
    check(func, make_inputs)


def test_attention_style_matmul_softmax(check):
    """softmax(q k^T / sqrt(d)) v: the core of attention, with dynamic batch."""
    def attention(q, k, v):
        return F.matmul(F.softmax(F.matmul(q, k, transb=True) / 2.0, axis=-1), v)
    check(attention, lambda n: tuple(rng.standard_normal((n, 5, 4)).astype(numpy.float32) for _ in range(3)))


def test_every_declared_math_function_is_tested(declared):
    assert declared("math") <= set(CASES)
