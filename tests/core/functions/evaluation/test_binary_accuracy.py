import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(7,), (3, 4)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestBinaryAccuracy(testing.FunctionTestCase):
    skip_backward_test = True  # binary_accuracy is not differentiable

    def generate_inputs(self):
        y = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        t = numpy.random.randint(-1, 2, self.shape).astype(numpy.int32)
        return y, t

    def forward(self, inputs, device):
        return F.binary_accuracy(*inputs),

    def forward_expected(self, inputs):
        y, t = inputs
        correct = total = 0
        for score, label in zip(y.ravel(), t.ravel()):
            if label == -1:
                continue
            total += 1
            correct += int((1 if score >= 0 else 0) == label)
        return numpy.asarray(correct / total if total else 0.0, dtype=self.dtype),


def test_all_ignored_gives_zero():
    result = F.binary_accuracy(numpy.ones(3, numpy.float32), numpy.full(3, -1, numpy.int32))
    assert result.dtype == numpy.float32 and float(result.array) == 0.0


def test_zero_score_predicts_positive():
    assert float(F.binary_accuracy(numpy.zeros(2, numpy.float32), numpy.ones(2, numpy.int32)).array) == 1.0


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"binary_accuracy: y.shape=\(3,\) does not match t.shape=\(4,\)"):
        F.binary_accuracy(numpy.ones(3, numpy.float32), numpy.zeros(4, numpy.int32))


def test_float_labels_rejected():
    with pytest.raises(TypeError, match="binary_accuracy: t must be an integer array of labels"):
        F.binary_accuracy(numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32))


def test_integer_scores_rejected():
    with pytest.raises(TypeError, match="binary_accuracy: y must be a floating-point array"):
        F.binary_accuracy(numpy.ones(3, numpy.int32), numpy.zeros(3, numpy.int32))
