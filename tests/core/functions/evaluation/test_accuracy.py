import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product([
    [{"yshape": (6, 4), "tshape": (6,)}, {"yshape": (3, 4, 2), "tshape": (3, 2)},
     {"yshape": (5, 3, 1), "tshape": (5,)}],
    [{"ignore_label": None}, {"ignore_label": -1}],
    [{"dtype": numpy.float32}, {"dtype": numpy.float64}],
]))
class TestAccuracy(testing.FunctionTestCase):
    skip_backward_test = True  # accuracy is not differentiable

    def generate_inputs(self):
        y = numpy.random.uniform(-1, 1, self.yshape).astype(self.dtype)
        low = -1 if self.ignore_label is not None else 0
        t = numpy.random.randint(low, self.yshape[1], self.tshape).astype(numpy.int32)
        return y, t

    def forward(self, inputs, device):
        y, t = inputs
        return F.accuracy(y, t, ignore_label=self.ignore_label),

    def forward_expected(self, inputs):
        y, t = inputs
        scores = numpy.moveaxis(y.reshape(y.shape[:2] + t.shape[1:]), 1, -1).reshape(-1, y.shape[1])
        correct = total = 0
        for s, label in zip(scores, t.ravel()):
            if label == self.ignore_label:
                continue
            total += 1
            correct += int(numpy.argmax(s) == label)
        return numpy.asarray(correct / total if total else 0.0, dtype=self.dtype),


def test_all_ignored_gives_zero():
    y = numpy.ones((3, 2), numpy.float32)
    result = F.accuracy(y, numpy.full(3, -1, numpy.int32), ignore_label=-1)
    assert result.dtype == numpy.float32 and result.shape == () and float(result.array) == 0.0
    assert not result.requires_grad


def test_integer_scores_rejected():
    with pytest.raises(TypeError, match="accuracy: y must be a floating-point array"):
        F.accuracy(numpy.ones((3, 2), numpy.int32), numpy.zeros(3, numpy.int32))


def test_float_labels_rejected():
    with pytest.raises(TypeError, match=r"accuracy: t must be an integer array of labels, got dtype float32"):
        F.accuracy(numpy.ones((3, 2), numpy.float32), numpy.zeros(3, numpy.float32))


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"accuracy: y.shape=\(3, 2\) must be \(N, K, \*t.shape\[1:\]\) "
                                         r"for t.shape=\(4,\)"):
        F.accuracy(numpy.ones((3, 2), numpy.float32), numpy.zeros(4, numpy.int32))
