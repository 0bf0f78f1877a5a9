import numpy
import pytest

import kusari
from kusari import optimizers
from kusari.optimizer import Hyperparameter


class _Params(kusari.Link):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.a = kusari.Parameter(numpy.ones(2, numpy.float32))
            self.b = kusari.Parameter(numpy.ones(3, numpy.float32))


def test_hyperparameter_falls_back_to_parent():
    parent = Hyperparameter()
    parent.lr = 0.1
    parent.momentum = 0.9
    child = Hyperparameter(parent)
    child.lr = 0.5
    assert child.lr == 0.5 and child.momentum == 0.9
    assert child.get_dict() == {"lr": 0.5, "momentum": 0.9}
    with pytest.raises(AttributeError, match="'eps'"):
        child.eps


def test_optimizer_hook_kinds_are_dispatched():
    link = _Params()
    opt = optimizers.SGD().setup(link)
    seen = []

    def whole(optimizer):
        seen.append(("whole", optimizer is opt))

    class PerParam:
        name = "per_param"
        call_for_each_param = True

        def __call__(self, rule, param):
            seen.append(("param", rule is param.update_rule, param.shape))

    opt.add_hook(whole, name="whole")
    opt.add_hook(PerParam())
    opt.update()
    assert seen == [("whole", True), ("param", True, (2,)), ("param", True, (3,))]


def test_post_hook_runs_after_update():
    link = _Params()
    opt = optimizers.SGD(lr=1.0).setup(link)
    values = []
    opt.add_hook(lambda o: values.append(link.a.array.copy()), name="watch", timing="post")
    link.a.grad = numpy.full(2, 0.5, numpy.float32)
    opt.update()
    numpy.testing.assert_array_equal(values[0], [0.5, 0.5])


def test_new_epoch_auto_and_manual_do_not_mix():
    class One(kusari.Link):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.w = kusari.Parameter(numpy.zeros(1, numpy.float32))

    opt = optimizers.SGD().setup(One())
    opt.new_epoch()
    assert opt.epoch == 1
    with pytest.raises(RuntimeError, match="set use_auto_new_epoch"):
        opt.new_epoch(auto=True)
    opt.use_auto_new_epoch = True
    opt.new_epoch(auto=True)
    assert opt.epoch == 2
    with pytest.raises(RuntimeError, match="advances epochs itself"):
        opt.new_epoch()
