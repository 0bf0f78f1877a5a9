import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "norm": ["L1", "L2"],
    "reduce": ["mean", "no"],
    "shape": [(4, 3), (1, 5)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestHinge(testing.FunctionTestCase):
    def generate_inputs(self):
        n, k = self.shape
        t = numpy.random.randint(0, k, n).astype(numpy.int32)
        x = numpy.random.uniform(-2, 2, self.shape)
        # Keep every margin 1 -/+ x away from the kink at 0 (x = +-1).
        x = numpy.where(numpy.abs(numpy.abs(x) - 1) < 0.1, x * 0.5, x).astype(self.dtype)
        return x, t

    def forward(self, inputs, device):
        return F.hinge(*inputs, norm=self.norm, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t = inputs
        x = x.astype(numpy.float64)
        loss = numpy.empty_like(x)
        for n in range(x.shape[0]):
            for k in range(x.shape[1]):
                d = 1.0 if t[n] == k else -1.0
                loss[n, k] = max(0.0, 1.0 - d * x[n, k])
        if self.norm == "L2":
            loss = loss ** 2
        if self.reduce == "mean":
            loss = loss.sum() / x.shape[0]
        return numpy.asarray(loss).astype(self.dtype),


def test_label_count_mismatch_rejected():
    with pytest.raises(ValueError, match=r"hinge: t.shape=\(3,\) does not match x.shape\[0\]=4 \(x.shape=\(4, 2\)\)"):
        F.hinge(numpy.zeros((4, 2), numpy.float32), numpy.zeros(3, numpy.int32))


def test_label_out_of_range_rejected():
    with pytest.raises(ValueError, match=r"hinge: t values must be in \[0, 2\), found 2"):
        F.hinge(numpy.zeros((2, 2), numpy.float32), numpy.array([0, 2], numpy.int32))


def test_float_labels_rejected():
    with pytest.raises(TypeError, match="hinge: t must be a signed integer label array, got dtype float32"):
        F.hinge(numpy.zeros((2, 2), numpy.float32), numpy.zeros(2, numpy.float32))


def test_x_must_be_2d():
    with pytest.raises(ValueError, match="hinge: x must be 2-dimensional, got 3"):
        F.hinge(numpy.zeros((2, 2, 2), numpy.float32), numpy.zeros(2, numpy.int32))


def test_bad_norm_rejected():
    with pytest.raises(ValueError, match="hinge: norm must be 'L1' or 'L2', got 'L3'"):
        F.hinge(numpy.zeros((2, 2), numpy.float32), numpy.zeros(2, numpy.int32), norm="L3")
