import numpy
import pytest

from kusari import datasets, iterators, links as L, optimizers
from kusari.training import StandardUpdater


def _parts(n=10, batch_size=4):
    x = numpy.arange(n * 2, dtype=numpy.float32).reshape(n, 2)
    t = numpy.zeros(n, numpy.int32)
    it = iterators.SerialIterator(datasets.TupleDataset(x, t), batch_size, repeat=True, shuffle=False,
                                  order_sampler=None)
    model = L.Classifier(L.Linear(2, 2))
    return it, optimizers.SGD(lr=0.0).setup(model), x


def test_epoch_bookkeeping_follows_main_iterator():
    it, opt, _ = _parts()
    updater = StandardUpdater(it, opt)
    seen = []
    for _ in range(5):
        updater.update()
        seen.append((updater.iteration, updater.epoch, updater.epoch_detail, updater.is_new_epoch))
    assert seen == [(1, 0, 0.4, False), (2, 0, 0.8, False), (3, 1, 1.2, True), (4, 1, 1.6, False),
                    (5, 2, 2.0, True)]
    assert updater.previous_epoch_detail == 1.6
    assert opt.epoch == 2  # auto_new_epoch advanced the optimizer at each new epoch
    assert updater.get_iterator("main") is it and updater.get_all_optimizers() == {"main": opt}


def test_loss_func_and_converter_kinds():
    it, opt, x = _parts()
    received = []

    def loss_tuple(xb, tb):
        received.append(("tuple", xb.shape, tb.shape))
        return opt.target(xb, tb)

    StandardUpdater(it, opt, loss_func=loss_tuple).update()

    def as_dict(batch, device):
        xs = numpy.stack([b[0] for b in batch])
        return {"x": xs, "t": numpy.zeros(len(batch), numpy.int32)}

    def loss_dict(x, t):
        received.append(("dict", x.shape, t.shape))
        return opt.target(x, t)

    StandardUpdater(it, opt, converter=as_dict, loss_func=loss_dict).update()

    def as_array(batch, device):
        return numpy.stack([b[0] for b in batch])

    def loss_single(xs):
        received.append(("single", xs.shape))
        return opt.target(xs, numpy.zeros(len(xs), numpy.int32))

    StandardUpdater(it, opt, converter=as_array, loss_func=loss_single).update()
    assert received == [("tuple", (4, 2), (4,)), ("dict", (4, 2), (4,)), ("single", (4, 2))]


def test_no_auto_new_epoch_and_loss_scale():
    it, opt, _ = _parts(n=4)
    updater = StandardUpdater(it, opt, auto_new_epoch=False, loss_scale=8.0)
    updater.update()
    assert updater.is_new_epoch and opt.epoch == 0
    assert opt.loss_scale == 8.0


def test_invalid_arguments():
    it, opt, _ = _parts()
    with pytest.raises(ValueError, match="StandardUpdater: a dict of iterators needs a 'main' entry"):
        StandardUpdater({"train": it}, opt)
    with pytest.raises(TypeError, match="StandardUpdater: converter must be callable"):
        StandardUpdater(it, opt, converter=None)
