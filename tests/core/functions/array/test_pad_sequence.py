import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [([3, 1, 2], (), None, 0), ([2, 4], (3,), 6, -1.5), ([0, 2], (2, 1), None, 0)],
}))
class TestPadSequence(testing.FunctionTestCase):
    def generate_inputs(self):
        lengths, tail = self.case[:2]
        return tuple(numpy.random.uniform(-1, 1, (n,) + tail).astype(self.dtype) for n in lengths)

    def forward(self, inputs, device):
        _, _, length, padding = self.case
        return F.pad_sequence(inputs, length, padding),

    def forward_expected(self, inputs):
        _, tail, length, padding = self.case
        length = length or max(len(x) for x in inputs)
        y = numpy.full((len(inputs), length) + tail, padding, self.dtype)
        for i, x in enumerate(inputs):
            for t in range(len(x)):
                y[i, t] = x[t]
        return y,


def test_bad_inputs_rejected():
    a = numpy.ones((3, 2), numpy.float32)
    with pytest.raises(ValueError, match=r"pad_sequence: length=2 is shorter than the longest .* \(3\)"):
        F.pad_sequence([a], length=2)
    with pytest.raises(ValueError, match=r"pad_sequence: xs\[1\].shape=\(3, 4\) and xs\[0\].shape=\(3, 2\) "
                                         "differ after the first"):
        F.pad_sequence([a, numpy.ones((3, 4), numpy.float32)])
    with pytest.raises(TypeError, match="pad_sequence: xs.1..dtype=float64 differs"):
        F.pad_sequence([a, numpy.ones((3, 2))])
    with pytest.raises(ValueError, match="pad_sequence: needs at least one sequence"):
        F.pad_sequence([])
