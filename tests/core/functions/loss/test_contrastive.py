import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "reduce": ["mean", "no"],
    "margin": [1.0, 3.0],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestContrastive(testing.FunctionTestCase):
    def generate_inputs(self):
        x0 = numpy.random.uniform(-1, 1, (6, 3))
        x1 = numpy.random.uniform(-1, 1, (6, 3))
        # Distances near the margin sit on the kink of max(margin - d, 0).
        d = numpy.linalg.norm(x0 - x1, axis=1)
        x1[numpy.abs(d - self.margin) < 0.1] *= 1.5
        y = numpy.array([0, 1, 0, 1, 0, 0], numpy.int32)
        return x0.astype(self.dtype), x1.astype(self.dtype), y

    def forward(self, inputs, device):
        return F.contrastive(*inputs, margin=self.margin, reduce=self.reduce),

    def forward_expected(self, inputs):
        x0, x1, y = inputs
        d = numpy.linalg.norm(x0.astype(numpy.float64) - x1, axis=1)
        loss = numpy.where(y == 1, d ** 2, numpy.maximum(self.margin - d, 0) ** 2) / 2
        if self.reduce == "mean":
            loss = loss.mean()
        return numpy.asarray(loss).astype(self.dtype),


def test_identical_pairs_have_finite_gradients():
    import kusari
    x0 = kusari.Variable(numpy.ones((2, 3), numpy.float32))
    x1 = kusari.Variable(numpy.ones((2, 3), numpy.float32))
    loss = F.contrastive(x0, x1, numpy.array([0, 1], numpy.int32))
    loss.backward()
    assert loss.array == pytest.approx(0.25)
    assert numpy.isfinite(x0.grad).all()


def test_labels_must_be_binary():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"contrastive: y values must be 0 \(dissimilar\) or 1 \(similar\)"):
        F.contrastive(x, x, numpy.array([0, 2], numpy.int32))


def test_label_count_mismatch_rejected():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"contrastive: y.shape=\(3,\) does not match x0.shape\[0\]=2"):
        F.contrastive(x, x, numpy.zeros(3, numpy.int32))


def test_bad_margin_rejected():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="contrastive: margin must be positive, got 0.0"):
        F.contrastive(x, x, numpy.zeros(2, numpy.int32), margin=0)
