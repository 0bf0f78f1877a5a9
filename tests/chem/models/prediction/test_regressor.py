"""Regressor: mean squared error by default, optional metrics, batched predict."""
import numpy
import pytest

pytest.importorskip("rdkit")

import kusari
from kusari import functions as F
from kusari import links as L
from kusari.chem.dataset.graph_dataset.base_graph_data import PaddingGraphData
from kusari.chem.models.prediction import Regressor


def _data(n=9):
    rng = numpy.random.RandomState(2)
    return (rng.standard_normal((n, 4)).astype(numpy.float32),
            rng.standard_normal((n, 2)).astype(numpy.float32))


def test_loss_and_reported_metrics():
    x, t = _data()
    model = Regressor(L.Linear(4, 2), metrics_fun=F.mean_absolute_error)
    reporter = kusari.Reporter()
    reporter.add_observer("main", model)
    observation = {}
    with reporter.scope(observation):
        loss = model(x, t)
    y = model.predictor(x).array
    assert loss.array == pytest.approx(float(((y - t) ** 2).mean()), rel=1e-5)
    assert sorted(observation) == ["main/loss", "main/metrics"]
    assert observation["main/metrics"] == pytest.approx(float(abs(y - t).mean()), rel=1e-5)


def test_no_metrics_by_default():
    x, t = _data()
    model = Regressor(L.Linear(4, 2))
    model(x, t)
    assert model.compute_metrics is False and model.metrics is None


def test_graph_data_carries_its_label():
    x, t = _data()

    class ReadX(kusari.Link):
        def forward(self, data):
            return data.x

    data = PaddingGraphData(x=x[:, :2], y=t)
    loss = Regressor(ReadX())(data)
    assert loss.array == pytest.approx(float(((x[:, :2] - t) ** 2).mean()), rel=1e-6)


def test_predict_in_batches():
    x, _ = _data(10)
    model = Regressor(L.Linear(4, 2))
    y = model.predict(x, batchsize=3)
    assert y.shape == (10, 2) and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y, model.predictor(x).array, rtol=1e-6)


def test_labels_for_another_batch_are_refused_before_the_predictor_learns_from_them():
    """In train mode the predictor's batch normalization would update its running averages for
    a call that then fails in the loss; the batch sizes are checked first."""
    predictor = kusari.Sequential(L.Linear(3, 4), L.BatchNormalization(4), L.Linear(4, 1))
    model = Regressor(predictor)
    x = numpy.random.RandomState(0).randn(5, 3).astype(numpy.float32)
    before = predictor[1].avg_mean.copy()
    with pytest.raises(ValueError, match=r"Regressor: the label holds 4 examples but the features 5 "
                                         r"\(label shape \(4, 1\), features shape \(5, 3\)\)"):
        model(x, numpy.zeros((4, 1), numpy.float32))
    numpy.testing.assert_array_equal(predictor[1].avg_mean, before)
    model(x, numpy.zeros((5, 1), numpy.float32))
    assert not numpy.array_equal(predictor[1].avg_mean, before)
