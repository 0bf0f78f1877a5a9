import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "reduce": ["mean", "no"],
    "margin": [0.2, 2.0],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestTriplet(testing.FunctionTestCase):
    def generate_inputs(self):
        a, p, n = (numpy.random.uniform(-1, 1, (5, 3)) for _ in range(3))
        # Push samples whose hinge argument is near 0 away from the kink.
        dist = ((a - p) ** 2).sum(1) - ((a - n) ** 2).sum(1) + self.margin
        n[numpy.abs(dist) < 0.1] += 0.5
        return tuple(v.astype(self.dtype) for v in (a, p, n))

    def forward(self, inputs, device):
        return F.triplet(*inputs, margin=self.margin, reduce=self.reduce),

    def forward_expected(self, inputs):
        a, p, n = (v.astype(numpy.float64) for v in inputs)
        d_ap = numpy.linalg.norm(a - p, axis=1) ** 2
        d_an = numpy.linalg.norm(a - n, axis=1) ** 2
        loss = numpy.maximum(d_ap - d_an + self.margin, 0)
        if self.reduce == "mean":
            loss = loss.mean()
        return numpy.asarray(loss).astype(self.dtype),


def test_shape_mismatch_rejected():
    a = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"triplet: shapes must match \(anchor.shape=\(2, 3\), positive.shape=\(2, 3\), negative.shape=\(2, 4\)\)"):
        F.triplet(a, a, numpy.zeros((2, 4), numpy.float32))


def test_bad_margin_rejected():
    a = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="triplet: margin must be positive, got -1.0"):
        F.triplet(a, a, a, margin=-1)


def test_dtype_mismatch_rejected():
    a = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(TypeError, match="triplet: dtypes must match"):
        F.triplet(a, a, a.astype(numpy.float64))
