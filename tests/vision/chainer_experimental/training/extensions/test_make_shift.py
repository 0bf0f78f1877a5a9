"""kusari.vision.chainer_experimental.training.extensions.make_shift against ChainerCV 0.13.1, and in a Trainer."""
import dataset_parity
import numpy
import pytest

import kusari
from kusari import links as L
from kusari import optimizers, training
from kusari.vision.chainer_experimental.training.extensions import make_shift


@pytest.mark.parametrize("name", dataset_parity.scenario_names("make_shift_"))
def test_matches_chainercv(name):
    dataset_parity.check_scenario(name)


def test_sets_the_learning_rate_before_each_update(tmp_path):
    model = L.Classifier(L.Linear(3, 2))
    optimizer = optimizers.SGD(lr=1.0)
    optimizer.setup(model)
    x = numpy.random.RandomState(0).rand(8, 3).astype(numpy.float32)
    data = kusari.datasets.TupleDataset(x, (x.sum(axis=1) > 1.5).astype(numpy.int32))
    iterator = kusari.iterators.SerialIterator(data, 4)
    trainer = training.Trainer(training.updaters.StandardUpdater(iterator, optimizer), (5, "iteration"), out=str(tmp_path))
    seen = []

    @make_shift("lr")
    def halving(trainer):
        return 0.5 ** trainer.updater.iteration

    trainer.extend(halving)
    trainer.extend(lambda trainer: seen.append(optimizer.lr), name="observe", trigger=(1, "iteration"))
    trainer.run()
    assert optimizer.lr == 0.5 ** 5
    assert seen == [0.5 ** i for i in range(1, 6)]
