"""Classifier: loss and metrics reported as scalars, label_key, batched predict / predict_proba."""
import warnings

import numpy
import pytest

pytest.importorskip("rdkit")

import kusari
from kusari import functions as F
from kusari import links as L
from kusari.chem.models.prediction import Classifier


def _data(n=10):
    rng = numpy.random.RandomState(1)
    return (rng.standard_normal((n, 4)).astype(numpy.float32),
            rng.randint(0, 3, size=n).astype(numpy.int32))


def _report(model, *args, **kwargs):
    reporter = kusari.Reporter()
    reporter.add_observer("main", model)
    observation = {}
    with reporter.scope(observation):
        loss = model(*args, **kwargs)
    return loss, observation


def test_call_returns_the_loss_and_reports_python_scalars():
    x, t = _data()
    model = Classifier(L.Linear(4, 3))
    loss, observation = _report(model, x, t)
    y = model.predictor(x)
    numpy.testing.assert_allclose(loss.array, F.softmax_cross_entropy(y, t).array, rtol=1e-6)
    assert sorted(observation) == ["main/accuracy", "main/loss"]
    assert isinstance(observation["main/loss"], float)
    assert observation["main/accuracy"] == pytest.approx(float(F.accuracy(y, t).array))
    assert model.metrics == {"accuracy": observation["main/accuracy"]}


def test_metrics_dict_none_and_deprecated_accfun():
    x, t = _data()
    model = Classifier(L.Linear(4, 3), metrics_fun={"acc": F.accuracy, "n": lambda y, t: 5})
    _, observation = _report(model, x, t)
    assert sorted(observation) == ["main/acc", "main/loss", "main/n"]
    assert observation["main/n"] == 5

    model = Classifier(L.Linear(4, 3), metrics_fun=None)
    _, observation = _report(model, x, t)
    assert sorted(observation) == ["main/loss"] and model.metrics is None

    with pytest.warns(DeprecationWarning, match="accfun"):
        model = Classifier(L.Linear(4, 3), accfun=lambda y, t: 1)
    _, observation = _report(model, x, t)
    assert observation["main/accuracy"] == 1

    with pytest.raises(TypeError, match="Classifier: metrics_fun must be"):
        Classifier(L.Linear(4, 3), metrics_fun=3)


def test_label_key_int_and_str():
    x, t = _data()

    class TwoInputs(kusari.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(4, 3)

        def forward(self, a, b=None):
            return self.l(a if b is None else a + b)

    model = Classifier(TwoInputs(), label_key=0)
    expected = F.softmax_cross_entropy(model.predictor(x, x), t).array
    numpy.testing.assert_allclose(model(t, x, x).array, expected, rtol=1e-6)
    model.label_key = "t"
    numpy.testing.assert_allclose(model(x, b=x, t=t).array, expected, rtol=1e-6)
    model.label_key = 5
    with pytest.raises(ValueError, match="label_key=5 is out of bounds for 2"):
        model(x, t)
    with pytest.raises(TypeError, match="label_key must be int or str"):
        Classifier(TwoInputs(), label_key=1.0)


def test_predict_and_predict_proba_in_batches():
    x, _ = _data(11)
    model = Classifier(L.Linear(4, 3))
    scores = model.predictor(x).array
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        proba = model.predict_proba(x, batchsize=4)
        labels = model.predict(x, batchsize=4)
    assert proba.shape == (11, 3) and proba.dtype == numpy.float32
    expected = numpy.exp(scores - scores.max(axis=1, keepdims=True))
    numpy.testing.assert_allclose(proba, expected / expected.sum(axis=1, keepdims=True), rtol=1e-5)
    numpy.testing.assert_array_equal(labels, scores.argmax(axis=1))
    assert labels.shape == (11,)


def test_predict_runs_in_test_mode():
    x, _ = _data()
    model = Classifier(L.Linear(4, 3))
    seen = []
    model.predict(x, preprocess_fn=lambda a: seen.append(kusari.config.train) or a)
    assert seen == [False]


def test_deprecated_attribute_names_warn_and_alias():
    model = Classifier(L.Linear(4, 3))
    with pytest.warns(DeprecationWarning):
        model.compute_accuracy = False
    assert model.compute_metrics is False
    with pytest.warns(DeprecationWarning):
        assert model.accfun is model.metrics_fun
