"""R2ScoreEvaluator: R^2 over the flattened predictions, in the predictions' dtype."""
import numpy
import pytest

pytest.importorskip("rdkit")
metrics = pytest.importorskip("sklearn.metrics")

import kusari
from kusari.chem.training.extensions import R2ScoreEvaluator

RNG = numpy.random.RandomState(4)
T = RNG.standard_normal((9, 2)).astype(numpy.float32)
Y = (T + 0.3 * RNG.standard_normal((9, 2))).astype(numpy.float32)


def test_matches_scikit_learn_on_the_flattened_values(run_evaluator):
    observation = run_evaluator(R2ScoreEvaluator, Y, T, batch_size=4)
    value = observation["main/r2_score"]
    assert value.dtype == numpy.float32 and value.shape == ()
    assert float(value) == pytest.approx(metrics.r2_score(T.ravel(), Y.ravel()), rel=1e-5)


def test_raw_values_per_column_and_constant_columns_score_zero():
    evaluator = R2ScoreEvaluator(iter([]), kusari.Link(), multioutput="raw_values")
    t = numpy.stack([T[:, 0], numpy.full(9, 2.0, numpy.float32)], axis=1)
    scores = evaluator.r2_score(Y, t)
    assert scores.shape == (2,) and scores.dtype == numpy.float32
    assert scores[0] == pytest.approx(metrics.r2_score(t[:, 0], Y[:, 0]), rel=1e-5)
    assert scores[1] == 0.0


def test_ignore_nan_zeroes_nan_deviations():
    evaluator = R2ScoreEvaluator(iter([]), kusari.Link(), ignore_nan=True)
    y = Y[:, 0].copy()
    y[3] = numpy.nan
    kept = numpy.arange(9) != 3
    # the NaN prediction drops out of the residuals only
    ss_res = ((y[kept] - T[kept, 0]) ** 2).sum()
    ss_tot = ((T[:, 0] - T[:, 0].mean()) ** 2).sum()
    assert float(evaluator.r2_score(y, T[:, 0])) == pytest.approx(1 - ss_res / ss_tot, rel=1e-5)
    plain = R2ScoreEvaluator(iter([]), kusari.Link())
    assert numpy.isnan(plain.r2_score(y, T[:, 0]))


def test_unsupported_arguments_are_refused():
    evaluator = R2ScoreEvaluator(iter([]), kusari.Link(), multioutput="variance_weighted")
    with pytest.raises(ValueError, match="multioutput must be one of"):
        evaluator.r2_score(Y, T)
    evaluator = R2ScoreEvaluator(iter([]), kusari.Link(), sample_weight=numpy.ones(9))
    with pytest.raises(NotImplementedError, match="sample_weight"):
        evaluator.r2_score(Y, T)

