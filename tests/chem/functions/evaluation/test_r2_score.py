import numpy
import pytest
import sklearn.metrics

from kusari.chem.functions.evaluation.r2_score import r2_score


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("multioutput", ["uniform_average", "raw_values"])
@pytest.mark.parametrize("shape", [(10,), (10, 3)])
def test_matches_scikit_learn(dtype, multioutput, shape):
    rng = numpy.random.RandomState(0)
    true = rng.uniform(-1, 1, shape).astype(dtype)
    pred = (true + rng.uniform(-0.3, 0.3, shape)).astype(dtype)
    y = r2_score(pred, true, multioutput=multioutput)
    assert y.dtype == dtype
    expected = sklearn.metrics.r2_score(true, pred, multioutput=multioutput)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5 if dtype == numpy.float32 else 1e-12)


def test_constant_column_scores_zero():
    true = numpy.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]], numpy.float32)
    pred = numpy.array([[2.0, 0.0], [0.0, 1.0], [1.0, 3.0]], numpy.float32)
    # column 1: SS_res = 1, SS_tot = 2
    numpy.testing.assert_allclose(r2_score(pred, true, multioutput="raw_values").array, [0, 0.5])


def test_ignore_nan():
    true = numpy.array([[0.0, 0.0], [1.0, numpy.nan], [2.0, 2.0]], numpy.float32)
    pred = numpy.array([[0.0, 1.0], [numpy.nan, 1.0], [3.0, 2.0]], numpy.float32)
    y = r2_score(pred, true, multioutput="raw_values", ignore_nan=True).array
    # column 0: the NaN residual counts 0, SS_res = 1, SS_tot = 2; column 1: its NaN makes the
    # column mean NaN, so every deviation counts 0 and the column scores 0
    numpy.testing.assert_allclose(y, [0.5, 0.0])
    assert numpy.isnan(r2_score(pred, true, multioutput="raw_values").array).all()


def test_errors():
    x = numpy.zeros(3, numpy.float32)
    with pytest.raises(NotImplementedError, match="r2_score: sample_weight"):
        r2_score(x, x, sample_weight=x)
    with pytest.raises(ValueError, match="r2_score: multioutput must be one of"):
        r2_score(x, x, multioutput="variance_weighted")
    with pytest.raises(ValueError, match=r"r2_score: .*pred.shape=\(3,\), true.shape=\(2,\)"):
        r2_score(x, x[:2])
    with pytest.raises(TypeError, match="r2_score: .*true.dtype=int64"):
        r2_score(x, numpy.zeros(3, numpy.int64))
