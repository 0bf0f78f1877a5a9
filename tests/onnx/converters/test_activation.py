"""Export of the activation converters, run in ONNX Runtime against kusari at two batch sizes."""
import numpy
import pytest

import kusari.functions as F

rng = numpy.random.default_rng(0)
C = 3


def _x(*shape):
    return lambda n: (rng.standard_normal((n,) + shape).astype(numpy.float32) * 2,)


W_CHANNEL = rng.uniform(0.1, 0.5, C).astype(numpy.float32)
CASES = {
    "relu": (F.relu, _x(C, 4)),
    "sigmoid": (F.sigmoid, _x(C, 4)),
    "tanh": (F.tanh, _x(C, 4)),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.1), _x(C, 4)),
    "clipped_relu": (lambda x: F.clipped_relu(x, 1.5), _x(C, 4)),
    "relu6": (F.relu6, lambda n: (rng.standard_normal((n, C)).astype(numpy.float32) * 6,)),
    "hard_sigmoid": (F.hard_sigmoid, _x(C, 4)),
    "hard_swish": (F.hard_swish, lambda n: (rng.standard_normal((n, C)).astype(numpy.float32) * 4,)),
    "softmax": (lambda x: F.softmax(x, axis=1), _x(C, 4)),
    "log_softmax": (lambda x: F.log_softmax(x, axis=-1), _x(C, 4)),
    "elu": (lambda x: F.elu(x, 0.7), _x(C, 4)),
    "selu": (F.selu, _x(C, 4)),
    "softplus": (lambda x: F.softplus(x, 2.0), _x(C, 4)),
    "silu": (F.silu, _x(C, 4)),
    "mish": (F.mish, _x(C, 4)),
    "gelu": (F.gelu, _x(C, 4)),
    "prelu": (lambda x: F.prelu(x, W_CHANNEL), _x(C, 4)),
    "swish": (lambda x: F.swish(x, W_CHANNEL), _x(C, 4)),
    "crelu": (lambda x: F.crelu(x, axis=1), _x(C, 4)),
    "maxout": (lambda x: F.maxout(x, 2, axis=1), _x(6, 4)),
    "lstm": (lambda c, x: F.lstm(c, x), lambda n: (rng.standard_normal((n, 5)).astype(numpy.float32),
                                                  rng.standard_normal((n, 20)).astype(numpy.float32))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_activation_matches_onnxruntime(name, check):
    func, make_inputs = CASES[name]
    check(func, make_inputs)


def test_gelu_tanh_approximation(check):
    check(lambda x: F.gelu(x, approximate="tanh"), _x(C, 4))


def test_every_declared_activation_is_tested(declared):
    assert declared("activation") <= set(CASES)
