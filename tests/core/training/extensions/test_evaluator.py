import numpy
import pytest

import kusari
from kusari import configuration, datasets, iterators, links as L, reporter
from kusari.training import Trainer
from kusari.training.extensions import Evaluator


def _data(n=12):
    rng = numpy.random.RandomState(1)
    return rng.randn(n, 3).astype(numpy.float32), rng.randint(0, 2, n).astype(numpy.int32)


def _reference_loss_acc(W, b, x, t):
    y = x @ W.T + b
    y = y - y.max(axis=1, keepdims=True)
    logp = y - numpy.log(numpy.exp(y).sum(axis=1, keepdims=True))
    return -logp[numpy.arange(len(t)), t].mean(), (y.argmax(axis=1) == t).mean()


def _iterator(x, t, batch_size=4):
    return iterators.SerialIterator(datasets.TupleDataset(x, t), batch_size, repeat=False, shuffle=False,
                                    order_sampler=None)


def test_mean_over_dataset_without_graph_in_test_mode():
    x, t = _data()
    model = L.Classifier(L.Linear(3, 2))
    seen = []

    def eval_func(xb, tb):
        seen.append((configuration.config.train, configuration.config.enable_backprop))
        loss = model(xb, tb)
        assert loss.creator is None
        return loss

    ev = Evaluator(_iterator(x, t), model, eval_func=eval_func)
    ev.name = "validation"
    obs = {}
    with reporter.Reporter().scope(obs):
        result = ev()
    loss, acc = _reference_loss_acc(model.predictor.W.array, model.predictor.b.array, x, t)
    assert result.keys() == {"validation/main/loss", "validation/main/accuracy"}
    numpy.testing.assert_allclose(result["validation/main/loss"], loss, rtol=1e-5)
    numpy.testing.assert_allclose(result["validation/main/accuracy"], acc, rtol=1e-6)
    assert obs == result
    assert seen == [(False, False)] * 3
    assert configuration.config.train is True
    # a second call sees the whole dataset again (the iterator is reset)
    numpy.testing.assert_allclose(ev()["validation/main/loss"], loss, rtol=1e-5)


def test_in_trainer_with_hook(make_setup, tmp_path):
    x, t = _data()
    model, _, updater = make_setup()
    hooks = []
    trainer = Trainer(updater, (2, "epoch"), out=str(tmp_path))
    trainer.extend(Evaluator(_iterator(x, t), model, eval_hook=hooks.append))
    trainer.run()
    assert len(hooks) == 2
    loss, _ = _reference_loss_acc(model.predictor.W.array, model.predictor.b.array, x, t)
    numpy.testing.assert_allclose(trainer.observation["validation/main/loss"], loss, rtol=1e-5)


def test_dict_converter_and_device():
    x, t = _data(8)
    model = L.Classifier(L.Linear(3, 2))
    calls = []

    def converter(batch, device):
        calls.append(device)
        xs, ts = kusari.dataset.concat_examples(batch)
        return {"x": xs, "t": ts}

    def eval_func(x, t):
        return model(x, t)

    ev = Evaluator(_iterator(x, t), {"main": model}, converter=converter, device="@numpy", eval_func=eval_func)
    result = ev()
    assert "main/loss" in result and len(calls) == 2 and calls[0] == kusari.get_device("@numpy")


def test_rejects_repeating_iterator_and_bad_target():
    x, t = _data()
    it = iterators.SerialIterator(datasets.TupleDataset(x, t), 4, repeat=True, shuffle=False, order_sampler=None)
    with pytest.raises(ValueError, match="Evaluator: the iterator repeats"):
        Evaluator(it, L.Linear(3, 2))
    with pytest.raises(TypeError, match="Evaluator: targets must be a Link"):
        Evaluator(_iterator(x, t), lambda x: x)
    with pytest.raises(ValueError, match="'main' entry"):
        Evaluator({"val": _iterator(x, t)}, L.Linear(3, 2))
