"""Export of the pointwise regression losses (squared, absolute, Huber) run in ONNX Runtime, with a dynamic batch."""
import numpy
import pytest

import kusari.functions as F

rng = numpy.random.default_rng(6)


def _pair(*shape):
    """Two float32 arrays of (n, *shape), spread over [-3, 3] so that Huber's two parts are both used."""
    return lambda n: tuple(rng.uniform(-3, 3, (n,) + shape).astype(numpy.float32) for _ in range(2))


CASES = {
    "squared_error": (F.squared_error, _pair(3, 2)),
    "mean_squared_error": (F.mean_squared_error, _pair(4)),
    "absolute_error": (F.absolute_error, _pair(3, 2)),
    "mean_absolute_error": (F.mean_absolute_error, _pair(4)),
    "huber_loss": (lambda x, t: F.huber_loss(x, t, 1.5), _pair(4, 2)),   # summed along axis 1
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_loss_matches_onnxruntime(name, check):
    func, make_inputs = CASES[name]
    check(func, make_inputs)


def test_huber_loss_without_reduction(check):
    check(lambda x, t: F.huber_loss(x, t, 0.5, reduce="no"), _pair(3))


def test_every_declared_loss_function_is_tested(declared):
    assert declared("loss") <= set(CASES)
