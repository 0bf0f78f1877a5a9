import copy
import pickle

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


def test_hyperparameter_follows_later_changes_up_the_chain():
    root = Hyperparameter()
    root.lr = 0.1
    mid = Hyperparameter(root)
    leaf = Hyperparameter(mid)
    root.lr = 0.2                       # set after the children exist
    root.eps = 1e-3                     # a new name
    assert (mid.lr, leaf.lr, leaf.eps) == (0.2, 0.2, 1e-3)
    mid.lr = 0.5                        # an override shadows the root for mid and below
    root.lr = 0.3
    assert (root.lr, mid.lr, leaf.lr) == (0.3, 0.5, 0.5)
    del mid.lr                          # removing the override inherits again
    assert (mid.lr, leaf.lr) == (0.3, 0.3)
    del root.eps
    with pytest.raises(AttributeError, match="'eps'"):
        leaf.eps
    with pytest.raises(AttributeError, match="'lr' is not set here"):
        del leaf.lr
    assert leaf.get_dict() == {"lr": 0.3} and mid.parent is root


@pytest.mark.parametrize("clone", [
    copy.deepcopy,
    lambda pair: pickle.loads(pickle.dumps(pair)),
])
def test_hyperparameter_copies_keep_the_link_to_their_parent(clone):
    parent = Hyperparameter()
    parent.lr = 0.1
    parent.momentum = 0.9
    child = Hyperparameter(parent)
    child.lr = 0.5
    parent2, child2 = clone((parent, child))
    assert child2.get_dict() == {"lr": 0.5, "momentum": 0.9}
    parent2.momentum = 0.8
    parent2.lr = 0.2
    assert (child2.momentum, child2.lr) == (0.8, 0.5)
    assert (child.momentum, parent.momentum) == (0.9, 0.9)


def test_changing_lr_mid_training_reaches_every_rule():
    link = _Params()
    opt = optimizers.SGD(lr=1.0).setup(link)
    link.b.update_rule.hyperparam.lr = 0.0      # per-parameter override: b never moves
    for lr in (1.0, 0.5):
        opt.lr = lr
        link.a.grad = numpy.ones(2, numpy.float32)
        link.b.grad = numpy.ones(3, numpy.float32)
        opt.update()
    numpy.testing.assert_array_equal(link.a.array, [1 - 1.0 - 0.5] * 2)
    numpy.testing.assert_array_equal(link.b.array, [1, 1, 1])


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


def test_update_rule_ensure_state_creates_the_state_once():
    import kusari
    from kusari import optimizers
    param = kusari.Parameter(numpy.ones(3, numpy.float32))
    link = kusari.Link()
    with link.init_scope():
        link.p = param
    optimizers.Adam().setup(link)
    rule = param.update_rule
    assert rule.state is None
    rule.ensure_state(param)
    assert set(rule.state) == {"m", "v"} and not rule.state["m"].any()
    rule.state["m"][...] = 1
    rule.ensure_state(param)          # an existing state is kept
    assert rule.state["m"].all()


@pytest.mark.parametrize("initializer", [None, kusari.initializers.Normal(dtype=numpy.float16)])
def test_fp32_update_skips_an_uninitialized_parameter(initializer):
    # a lazy link not called yet: its parameter has no array, and possibly no known dtype
    link = kusari.links.Linear(None, 2, nobias=True, initialW=initializer)
    optimizer = optimizers.SGD(lr=0.1)
    optimizer.setup(link)
    optimizer.use_fp32_update()
    optimizer.update()
    assert link.W.array is None
    link(numpy.ones((1, 3), numpy.float16 if initializer is not None else numpy.float32))
    assert link.W.array is not None
