"""Export of linear, convolution, deconvolution and embed_id run in ONNX Runtime, with a dynamic batch."""
import numpy
import pytest

import kusari.functions as F

rng = numpy.random.default_rng(4)


def _w(*shape):
    return rng.standard_normal(shape).astype(numpy.float32) * 0.3


def _x(*shape):
    return lambda n: (rng.standard_normal((n,) + shape).astype(numpy.float32),)


W2, B = _w(4, 3, 3, 3), _w(4)
_W_LIN, _B_LIN = _w(5, 6), _w(5)
_W_EMB = _w(7, 4)
W_A = _w(4, 3, 3)
W_B = _w(2, 3, 2, 2, 2)
W_C = _w(2, 3, 3, 3)
W_D = _w(3, 2, 3)
W_E = _w(3)
W_F = _w(3, 2, 2, 2, 2)
CASES = {
    "linear": (lambda x: F.linear(x, _W_LIN, _B_LIN), _x(2, 3)),   # trailing axes flattened
    "convolution_1d": (lambda x: F.convolution_1d(x, W_A, B, stride=2, pad=1), _x(3, 9)),
    "convolution_2d": (lambda x: F.convolution_2d(x, W2, B, stride=2, pad=1, cover_all=True), _x(3, 8, 7)),
    "convolution_3d": (lambda x: F.convolution_3d(x, W_B), _x(3, 4, 4, 4)),
    "convolution_nd": (lambda x: F.convolution_nd(x, W2, None, pad=(0, 1)), _x(3, 6, 6)),
    "dilated_convolution_2d": (lambda x: F.dilated_convolution_2d(x, W2, B, dilate=2, pad=1), _x(3, 7, 7)),
    "depthwise_convolution_2d": (lambda x: F.depthwise_convolution_2d(x, W_C, None, pad=1),
                                 _x(3, 5, 5)),
    "deconvolution_1d": (lambda x: F.deconvolution_1d(x, W_D, None, stride=2), _x(3, 5)),
    "deconvolution_2d": (lambda x: F.deconvolution_2d(x, W2, W_E, stride=2, pad=1, outsize=(10, 8)),
                         _x(4, 5, 4)),
    "deconvolution_3d": (lambda x: F.deconvolution_3d(x, W_F, stride=2), _x(3, 2, 3, 2)),
    "deconvolution_nd": (lambda x: F.deconvolution_nd(x, W2, None, pad=1), _x(4, 5, 5)),
    "embed_id": (lambda x: F.embed_id(x, _W_EMB, ignore_label=-1),
                 lambda n: (rng.integers(-1, 7, (n, 5)).astype(numpy.int32),)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_connection_matches_onnxruntime(name, check):
    func, make_inputs = CASES[name]
    check(func, make_inputs)


W_GROUPED = _w(6, 2, 3, 3)


def test_grouped_convolution(check):
    check(lambda x: F.convolution_2d(x, W_GROUPED, None, groups=2), _x(4, 5, 5))


def test_embed_id_without_ignore_label(check):
    check(lambda x: F.embed_id(x, _W_EMB), lambda n: (rng.integers(0, 7, (n, 3)).astype(numpy.int64),))


def test_every_declared_connection_function_is_tested(declared):
    assert declared("connection") <= set(CASES)
