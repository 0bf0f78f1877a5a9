"""Export of batch (fixed statistics), layer, group, L2 and local response normalization run in ONNX Runtime."""
import numpy
import pytest

import kusari.functions as F

rng = numpy.random.default_rng(6)
C = 4


def _p(*shape, low=0.5, high=1.5):
    return rng.uniform(low, high, shape).astype(numpy.float32)


def _x(*shape):
    return lambda n: (rng.standard_normal((n,) + shape).astype(numpy.float32) * 2 + 1,)


GAMMA, BETA, MEAN, VAR = _p(C), _p(C, low=-1, high=1), _p(C, low=-1, high=1), _p(C)
GAMMA6, BETA6 = _p(6), _p(6, low=-1, high=1)
CASES = {
    "fixed_batch_normalization": (lambda x: F.fixed_batch_normalization(x, GAMMA, BETA, MEAN, VAR), _x(C, 3, 3)),
    "layer_normalization": (lambda x: F.layer_normalization(x, GAMMA6, BETA6), _x(6)),
    "group_normalization": (lambda x: F.group_normalization(x, 2, GAMMA, BETA), _x(C, 3, 3)),
    "normalize": (lambda x: F.normalize(x, axis=1), _x(C)),
    "local_response_normalization": (lambda x: F.local_response_normalization(x, n=3), _x(6, 2, 2)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_normalization_matches_onnxruntime(name, check):
    func, make_inputs = CASES[name]
    check(func, make_inputs)


def test_fixed_batch_normalization_on_other_axes(check):
    gamma, beta, mean, var = _p(3, 2), _p(3, 2), _p(3, 2), _p(3, 2)   # drawn once: the lambda runs per batch
    check(lambda x: F.fixed_batch_normalization(x, gamma, beta, mean, var), _x(3, 2))


def test_every_declared_normalization_function_is_tested(declared):
    assert declared("normalization") <= set(CASES)
