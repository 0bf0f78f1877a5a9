"""Tests for kusari.testing.check_backward_arrays and FunctionTestCase.test_backward_arrays."""
import numpy
import pytest

import kusari
from kusari import testing


class Scale(kusari.FunctionNode):
    """y = x * w elementwise; backward_arrays as given by ``arrays`` (a function of self, indexes, gy)."""

    def __init__(self, arrays=None):
        self._arrays = arrays

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return inputs[0] * inputs[1],

    def backward(self, indexes, grad_outputs):
        x, w = self.get_retained_inputs()
        gy, = grad_outputs
        return tuple(gy * w if i == 0 else gy * x for i in indexes)

    def backward_arrays(self, indexes, grad_outputs):
        return self._arrays(self, indexes, grad_outputs[0])


class PlainScale(Scale):
    """Scale without an array-level backward (overriding ``backward`` drops the inherited one)."""

    backward = Scale.backward


def _exact(node, indexes, gy):
    x, w = node.inputs[0].data, node.inputs[1].data
    return tuple(gy * w if i == 0 else gy * x for i in indexes)


def _off_in_the_last_bit(node, indexes, gy):
    x, w = node.inputs[0].data, node.inputs[1].data
    return tuple(w * gy * numpy.float32(1 + 2 ** -22) if i == 0 else gy * x for i in indexes)


def _ignores_indexes(node, indexes, gy):
    w = node.inputs[1].data
    return tuple(gy * w for _ in indexes)       # input 0's gradient wherever it is asked


def _inputs():
    rng = numpy.random.default_rng(0)
    return tuple(rng.uniform(-1, 1, (3, 4)).astype(numpy.float32) for _ in range(2))


def test_an_exact_array_backward_passes_and_is_counted():
    assert testing.check_backward_arrays(lambda x, w: Scale(_exact).apply((x, w)), _inputs()) == 1


def test_a_last_bit_difference_is_caught():
    with pytest.raises(AssertionError, match=r"Scale: gradient of input 0 .*differ"):
        testing.check_backward_arrays(lambda x, w: Scale(_off_in_the_last_bit).apply((x, w)), _inputs())


def test_each_input_asked_alone_is_checked():
    # Gives input 0's gradient for input 1 too.
    with pytest.raises(AssertionError, match=r"Scale: gradient of input 1"):
        testing.check_backward_arrays(lambda x, w: Scale(_ignores_indexes).apply((x, w)), _inputs())


def test_a_deferring_array_backward_compares_backward_with_itself():
    assert testing.check_backward_arrays(lambda x, w: Scale(lambda *a: None).apply((x, w)), _inputs()) == 1


def test_ops_without_array_backward_are_not_counted():
    assert testing.check_backward_arrays(lambda x, w: PlainScale().apply((x, w)), _inputs()) == 0


class _ScaleTest(testing.FunctionTestCase):
    arrays = None

    def generate_inputs(self):
        return _inputs()

    def forward(self, inputs, device):
        x, w = inputs
        return Scale(type(self).arrays).apply((x, w))

    def forward_expected(self, inputs):
        return inputs[0] * inputs[1],


def test_function_test_case_runs_the_check_on_every_case():
    good = type("Good", (_ScaleTest,), {"arrays": staticmethod(_exact)})()
    good.setup_method()
    good.test_backward_arrays("@numpy")
    bad = type("Bad", (_ScaleTest,), {"arrays": staticmethod(_off_in_the_last_bit)})()
    bad.setup_method()
    with pytest.raises(AssertionError, match="backward_arrays and backward differ"):
        bad.test_backward_arrays("@numpy")


def test_function_test_case_skips_ops_without_array_backward():
    class Plain(_ScaleTest):
        def forward(self, inputs, device):
            return PlainScale().apply(inputs)

    case = Plain()
    case.setup_method()
    with pytest.raises(pytest.skip.Exception, match="no op of this forward defines backward_arrays"):
        case.test_backward_arrays("@numpy")
