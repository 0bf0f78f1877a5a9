import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "reduce": ["mean", "no"],
    "normalize": [True, False],
    "shape": [(4, 3), (5,)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSigmoidCrossEntropy(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(-4, 4, self.shape).astype(self.dtype)
        t = numpy.random.randint(-1, 2, self.shape).astype(numpy.int32)
        return x, t

    def forward(self, inputs, device):
        return F.sigmoid_cross_entropy(*inputs, normalize=self.normalize, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t = inputs
        p = 1 / (1 + numpy.exp(-x.astype(numpy.float64)))
        loss = -(t * numpy.log(p) + (1 - t) * numpy.log(1 - p))
        loss[t == -1] = 0
        if self.reduce == "mean":
            count = (t != -1).sum() if self.normalize else x.shape[0]
            loss = loss.sum() / max(count, 1)
        return numpy.asarray(loss).astype(self.dtype),


def test_all_ignored_gives_zero():
    x = kusari.Variable(numpy.ones((2, 2), numpy.float32))
    loss = F.sigmoid_cross_entropy(x, numpy.full((2, 2), -1, numpy.int32))
    loss.backward()
    assert loss.array == 0
    assert (x.grad == 0).all()


def test_large_scores_stay_finite():
    x = numpy.array([1000.0, -1000.0], numpy.float32)
    t = numpy.array([0, 1], numpy.int32)
    numpy.testing.assert_allclose(F.sigmoid_cross_entropy(x, t, reduce="no").array, [1000, 1000])


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"sigmoid_cross_entropy: t.shape=\(3,\) does not match x.shape=\(3, 1\)"):
        F.sigmoid_cross_entropy(numpy.zeros((3, 1), numpy.float32), numpy.zeros(3, numpy.int32))


def test_bad_labels_rejected():
    with pytest.raises(ValueError, match=r"sigmoid_cross_entropy: t values must be 0, 1 or -1 \(ignored\)"):
        F.sigmoid_cross_entropy(numpy.zeros(2, numpy.float32), numpy.array([0, 2], numpy.int32))


def test_zero_dim_rejected():
    with pytest.raises(ValueError, match="sigmoid_cross_entropy: x must have a batch axis"):
        F.sigmoid_cross_entropy(numpy.zeros((), numpy.float32), numpy.zeros((), numpy.int32))
