import numpy
import pytest

import kusari.functions as F
from kusari import testing


def _r2_column(pred, true, weight):
    """R^2 of one output column, written out from the definition."""
    mean = sum(w * v for w, v in zip(weight, true)) / sum(weight)
    ss_res = sum(w * (p - v) ** 2 for w, p, v in zip(weight, pred, true))
    ss_tot = sum(w * (v - mean) ** 2 for w, v in zip(weight, true))
    return 0.0 if ss_tot == 0 else 1 - ss_res / ss_tot


@testing.parameterize(*testing.product({
    "shape": [(10,), (8, 3)],
    "multioutput": ["uniform_average", "raw_values"],
    "weighted": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestR2Score(testing.FunctionTestCase):
    skip_backward_test = True  # r2_score is an evaluation metric without a gradient

    def setup(self):
        self.weight = numpy.random.uniform(0.5, 2, self.shape[0]) if self.weighted else None

    def generate_inputs(self):
        true = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        pred = (true + numpy.random.uniform(-0.3, 0.3, self.shape)).astype(self.dtype)
        return pred, true

    def forward(self, inputs, device):
        pred, true = inputs
        return F.r2_score(pred, true, sample_weight=self.weight, multioutput=self.multioutput),

    def forward_expected(self, inputs):
        pred, true = (a.astype(numpy.float64).reshape(self.shape[0], -1) for a in inputs)
        weight = numpy.ones(self.shape[0]) if self.weight is None else self.weight
        scores = numpy.array([_r2_column(pred[:, j], true[:, j], weight) for j in range(pred.shape[1])])
        if self.multioutput == "uniform_average":
            return numpy.asarray(scores.mean(), dtype=self.dtype),
        return scores.reshape(self.shape[1:]).astype(self.dtype),


def test_constant_target_scores_zero():
    true = numpy.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]], numpy.float32)
    pred = true + numpy.float32(0.5)
    scores = F.r2_score(pred, true, multioutput="raw_values").array
    assert scores[0] == 0.0
    testing.assert_allclose(scores[1], 1 - 0.75 / 2.0)


def test_bad_multioutput_rejected():
    with pytest.raises(ValueError, match="r2_score: multioutput must be 'uniform_average' or "
                                         "'raw_values', got 'variance_weighted'"):
        F.r2_score(numpy.ones(3), numpy.ones(3), multioutput="variance_weighted")


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"r2_score: shapes must match \(pred.shape=\(3,\), "
                                         r"true.shape=\(4,\)\)"):
        F.r2_score(numpy.ones(3), numpy.ones(4))


def test_mixed_dtypes_rejected():
    with pytest.raises(TypeError, match=r"r2_score: dtypes must match \(pred.dtype=float32, "
                                        r"true.dtype=float64\)"):
        F.r2_score(numpy.ones(3, numpy.float32), numpy.ones(3))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="r2_score: pred must be a floating-point array"):
        F.r2_score(numpy.ones(3, numpy.int32), numpy.ones(3, numpy.int32))


def test_sample_weight_shape_checked():
    with pytest.raises(ValueError, match=r"r2_score: sample_weight.shape=\(2,\) must be \(3,\)"):
        F.r2_score(numpy.ones(3), numpy.ones(3), sample_weight=numpy.ones(2))


def test_scalar_inputs_rejected():
    with pytest.raises(ValueError, match="r2_score: pred and true must have a sample axis"):
        F.r2_score(numpy.ones(()), numpy.ones(()))
