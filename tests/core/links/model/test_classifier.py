import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L


def _data():
    rng = numpy.random.default_rng(0)
    return rng.standard_normal((6, 4)).astype(numpy.float32), rng.integers(0, 3, 6).astype(numpy.int32)


def _np_softmax_ce(y, t):
    logp = y - numpy.log(numpy.exp(y).sum(1, keepdims=True))
    return -logp[numpy.arange(len(t)), t].mean()


def test_loss_accuracy_and_report():
    x, t = _data()
    model = L.Classifier(L.Linear(4, 3))
    reporter = kusari.Reporter()
    reporter.add_observer("main", model)
    observation = {}
    with reporter.scope(observation):
        loss = model(x, t)
    y = x @ model.predictor.W.array.T
    numpy.testing.assert_allclose(loss.array, _np_softmax_ce(y, t), rtol=1e-5)
    numpy.testing.assert_allclose(model.accuracy.array, (y.argmax(1) == t).mean(), rtol=1e-6)
    assert model.y is not None and model.loss is loss
    assert set(observation) == {"main/loss", "main/accuracy"}
    assert [n for n, _ in model.namedparams()] == ["/predictor/W", "/predictor/b"]


def test_label_key_int_and_str_and_no_accuracy():
    x, t = _data()

    class Two(kusari.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(4, 3)

        def forward(self, a, b):
            return self.l(a + b)

    model = L.Classifier(Two(), lossfun=F.softmax_cross_entropy, label_key=0)
    model.compute_accuracy = False
    loss0 = model(t, x, x)
    assert model.accuracy is None
    model_kw = L.Classifier(model.predictor, label_key="label")
    numpy.testing.assert_allclose(model_kw(x, x, label=t).array, loss0.array)


def test_label_key_errors():
    x, t = _data()
    with pytest.raises(TypeError, match="Classifier.*label_key"):
        L.Classifier(L.Linear(4, 3), label_key=1.5)
    with pytest.raises(ValueError, match="Classifier.*label_key=3"):
        L.Classifier(L.Linear(4, 3), label_key=3)(x, t)
    with pytest.raises(ValueError, match="Classifier.*'t'"):
        L.Classifier(L.Linear(4, 3), label_key="t")(x, label=t)
