import numpy
import pytest

from kusari import Variable, functions as F
from kusari.training import Trainer
from kusari.training.extensions import FailOnNonNumber, observe_lr, observe_value, unchain_variables


def test_fail_on_nonnumber(make_setup, tmp_path):
    model, _, updater = make_setup()
    trainer = Trainer(updater, (3, "iteration"), out=str(tmp_path))
    trainer.extend(FailOnNonNumber())
    trainer.run()  # finite: no error
    model.predictor.b.array[1] = numpy.nan
    with pytest.raises(RuntimeError, match="FailOnNonNumber: the data of parameter '/predictor/b'"):
        FailOnNonNumber()(trainer)
    model.predictor.b.array[1] = 0.0
    model.predictor.W.grad = numpy.full((2, 3), numpy.inf, numpy.float32)
    FailOnNonNumber(check_grad=False)(trainer)
    with pytest.raises(RuntimeError, match="grad of parameter '/predictor/W'"):
        FailOnNonNumber()(trainer)


def test_observe_lr_and_value(make_setup, tmp_path):
    _, optimizer, updater = make_setup(lr=0.25)
    trainer = Trainer(updater, (1, "iteration"), out=str(tmp_path))
    trainer.extend(observe_lr(), trigger=(1, "iteration"))
    trainer.extend(observe_value("it2", lambda t: 2 * t.updater.iteration), trigger=(1, "iteration"))
    trainer.run()
    assert trainer.observation["lr"] == 0.25 and trainer.observation["it2"] == 2


def test_unchain_variables(fake_trainer):
    x = Variable(numpy.ones(2, numpy.float32))
    y = F.sum(x * 2)
    fake_trainer.observation = {"y": y, "other": 1.0}
    assert y.creator is not None
    unchain_variables(fake_trainer)
    assert y.creator is None
