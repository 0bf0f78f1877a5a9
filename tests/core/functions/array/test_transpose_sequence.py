import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [([4, 2, 2, 1], (3,)), ([3], ()), ([2, 2], (2, 1)), ([3, 1, 0], (2,))],
}))
class TestTransposeSequence(testing.FunctionTestCase):
    def generate_inputs(self):
        lengths, tail = self.case
        return tuple(numpy.random.uniform(-1, 1, (n,) + tail).astype(self.dtype) for n in lengths)

    def forward(self, inputs, device):
        return tuple(F.transpose_sequence(inputs))

    def forward_expected(self, inputs):
        steps = max(len(x) for x in inputs)
        return tuple(numpy.array([x[t] for x in inputs if len(x) > t], self.dtype)
                     for t in range(steps))


def test_round_trip_and_empty_input():
    xs = [numpy.arange(n * 2, dtype=numpy.float32).reshape(n, 2) for n in (3, 2, 2)]
    back = F.transpose_sequence(F.transpose_sequence(xs))
    for x, y in zip(xs, back):
        numpy.testing.assert_array_equal(x, y.array)
    assert F.transpose_sequence([]) == ()


def test_unused_steps_get_zero_gradient():
    x = kusari.Variable(numpy.ones((3, 2), numpy.float32))
    ys = F.transpose_sequence([x])
    ys[2].grad = numpy.ones((1, 2), numpy.float32)
    ys[2].backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 0], [0, 0], [1, 1]])


def test_bad_inputs_rejected():
    with pytest.raises(ValueError, match=r"transpose_sequence: xs must be sorted by decreasing length, "
                                         r"but len\(xs\[1\]\)=3 > len\(xs\[0\]\)=2"):
        F.transpose_sequence([numpy.ones(2), numpy.ones(3)])
    with pytest.raises(ValueError, match=r"transpose_sequence: xs\[1\] \(shape=\(2, 3\), dtype=float64\) "
                                         "does not match xs"):
        F.transpose_sequence([numpy.ones((2, 2)), numpy.ones((2, 3))])
