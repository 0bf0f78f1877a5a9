import numpy
import pytest

import kusari.functions as F
from kusari import testing

DTYPES = [{"dtype": numpy.float32}, {"dtype": numpy.float64}]
# label_num=5 with labels drawn from [0, 4): class 4 never occurs, so its scores are 0/0 = nan.
OPTIONS = [{"label_num": None, "ignore_label": -1}, {"label_num": 5, "ignore_label": -1},
           {"label_num": 4, "ignore_label": 3}]


def _reference(y, t, label_num, beta, ignore_label):
    if label_num is None:
        label_num = int(t.max()) + 1
    pred = numpy.argmax(y, axis=1).ravel()
    true = t.ravel()
    tp = numpy.zeros(label_num)
    predicted = numpy.zeros(label_num)
    support = numpy.zeros(label_num, numpy.int64)
    for p, label in zip(pred, true):
        if label == ignore_label:
            continue
        support[label] += 1
        if p < label_num:
            predicted[p] += 1
        if p == label:
            tp[label] += 1
    with numpy.errstate(divide="ignore", invalid="ignore"):
        precision = tp / predicted
        recall = tp / support
        fbeta = (1 + beta ** 2) * precision * recall / (beta ** 2 * precision + recall)
    return precision, recall, fbeta, support


class _Base(testing.FunctionTestCase):
    skip_backward_test = True  # counting scores are not differentiable

    def generate_inputs(self):
        y = numpy.random.uniform(-1, 1, (12, 4)).astype(self.dtype)
        t = numpy.random.randint(0, 4, 12).astype(numpy.int32)
        t[:2] = -1 if self.ignore_label == -1 else self.ignore_label
        return y, t


@testing.parameterize(*testing.product([OPTIONS, [{"beta": 1.0}, {"beta": 2.0}], DTYPES]))
class TestClassificationSummary(_Base):
    def forward(self, inputs, device):
        y, t = inputs
        return F.classification_summary(y, t, label_num=self.label_num, beta=self.beta,
                                        ignore_label=self.ignore_label)

    def forward_expected(self, inputs):
        p, r, f, s = _reference(*inputs, self.label_num, self.beta, self.ignore_label)
        return p.astype(self.dtype), r.astype(self.dtype), f.astype(self.dtype), s


@testing.parameterize(*testing.product([
    [{"name": "precision", "which": 0}, {"name": "recall", "which": 1}, {"name": "f1_score", "which": 2}],
    OPTIONS, DTYPES]))
class TestScore(_Base):
    def forward(self, inputs, device):
        y, t = inputs
        return getattr(F, self.name)(y, t, label_num=self.label_num, ignore_label=self.ignore_label)

    def forward_expected(self, inputs):
        ref = _reference(*inputs, self.label_num, 1.0, self.ignore_label)
        return ref[self.which].astype(self.dtype), ref[3]


def test_label_num_defaults_to_max_label_plus_one():
    y = numpy.eye(3, dtype=numpy.float32)
    precision, recall, fbeta, support = F.classification_summary(y, numpy.array([0, 1, 1], numpy.int32))
    assert precision.shape == (2,)
    numpy.testing.assert_array_equal(support.array, [1, 2])


def test_float_labels_rejected():
    with pytest.raises(TypeError, match="classification_summary: t must be an integer array of labels"):
        F.classification_summary(numpy.ones((3, 2), numpy.float32), numpy.zeros(3, numpy.float32))


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"precision: y.shape=\(3, 2\) must be"):
        F.precision(numpy.ones((3, 2), numpy.float32), numpy.zeros(2, numpy.int32))
