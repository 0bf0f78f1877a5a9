"""Mechanics of Link, Chain, ChainList, Sequential and LinkHook."""
import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import initializers
from kusari.serializers import DictionarySerializer, NpzDeserializer


class Leaf(kusari.Link):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.W = kusari.Parameter(initializers.Constant(2.0), (2, 3))
            self.u = kusari.Parameter(initializers.One())  # uninitialized
        self.not_a_param = kusari.Parameter(numpy.zeros(1, numpy.float32))
        self.add_persistent("count", 0)
        self.add_persistent("stat", numpy.zeros(2, numpy.float32))

    def forward(self, x):
        return F.linear(x, self.W)


class Tree(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.a = Leaf()
            self.b = L.Linear(3, 2)
        self.add_param("p", (2,), initializer=initializers.Zero())


def test_init_scope_registration_and_traversal():
    leaf = Leaf()
    assert [n for n, _ in leaf.namedparams()] == ["/W", "/u"]
    assert [n for n, _ in leaf.namedparams(include_uninit=False)] == ["/W"]
    tree = Tree()
    assert sorted(n for n, _ in tree.namedparams()) == ["/a/W", "/a/u", "/b/W", "/b/b", "/p"]
    assert [n for n, _ in tree.namedlinks()] == ["/", "/a", "/b"]
    assert [n for n, _ in tree.namedlinks(skipself=True)] == ["/a", "/b"]
    assert list(tree.children()) == [tree.a, tree.b]
    assert tree["a"] is tree.a and tree.a.name == "a" and tree.a.W.name == "W"
    del tree.b
    assert [n for n, _ in tree.namedlinks()] == ["/", "/a"]
    with pytest.raises(AttributeError, match="add_param.*'p'"):
        tree.add_param("p")


def test_count_params_warns_about_uninitialized():
    with pytest.warns(UserWarning, match="u is not initialized"):
        assert Tree().count_params() == 6 + 6 + 2 + 2


def test_grads_cleargrads_zerograds_addgrads():
    t1, t2 = Tree(), Tree()
    for t in (t1, t2):
        F.sum(t.b(numpy.ones((1, 3), numpy.float32))).backward()
    numpy.testing.assert_array_equal(t1.b.b.grad, [1, 1])
    t1.addgrads(t2)
    numpy.testing.assert_array_equal(t1.b.b.grad, [2, 2])
    t1.zerograds()
    numpy.testing.assert_array_equal(t1.b.W.grad, numpy.zeros((2, 3)))
    t1.cleargrads()
    assert all(p.grad is None for p in t1.params())


def test_copyparams_and_copy_modes():
    src, dst = Tree(), Tree()
    src.b.W.array[...] = 7
    src.a.stat[...] = [1, 2]
    src.a.count = 5
    dst.copyparams(src)
    numpy.testing.assert_array_equal(dst.b.W.array, 7)
    numpy.testing.assert_array_equal(dst.a.stat, [1, 2])
    assert dst.a.count == 5 and dst.b.W.array is not src.b.W.array
    shared = src.copy("share")
    assert shared.b.W.array is src.b.W.array and shared.b.W is not src.b.W
    copied = src.copy("copy")
    assert copied.b.W.array is not src.b.W.array
    numpy.testing.assert_array_equal(copied.b.W.array, 7)
    copied.a.stat[0] = 9
    assert src.a.stat[0] == 1
    fresh = src.copy("init")
    numpy.testing.assert_array_equal(fresh.a.W.array, 2)  # re-run initializer
    assert not (fresh.b.W.array == 7).all()
    assert [n for n, _ in fresh.namedparams()] == [n for n, _ in src.namedparams()]
    with pytest.raises(ValueError, match="copy.*'deep'"):
        src.copy("deep")


def test_repeat():
    seq = L.Linear(2, 2).repeat(3, mode="init")
    assert isinstance(seq, kusari.Sequential) and len(seq) == 3
    assert len({id(l.W.array) for l in seq}) == 3
    shared = L.Linear(2, 2).repeat(2, mode="share")
    assert shared[0].W.array is shared[1].W.array
    assert len(L.Linear(2, 2).repeat(0)) == 0


def test_enable_disable_update():
    from kusari.optimizer import UpdateRule
    link = L.Linear(2, 2)
    for p in link.params():
        p.update_rule = UpdateRule()
    assert link.update_enabled
    link.disable_update()
    assert not link.update_enabled and not link.W.update_rule.enabled
    link.enable_update()
    assert link.update_enabled


def test_chainlist():
    cl = kusari.ChainList(L.Linear(2, 3), L.Linear(3, 1))
    assert len(cl) == 2 and cl[1].W.shape == (1, 3)
    assert [n for n, _ in cl.namedparams()] == ["/0/W", "/0/b", "/1/W", "/1/b"]
    cl.append(L.Linear(1, 1))
    assert [n for n, _ in cl.namedlinks(skipself=True)] == ["/0", "/1", "/2"]
    with pytest.raises(TypeError, match="ChainList"):
        cl.add_link(F.relu)
    copy = cl.copy("copy")
    assert copy[0].W.array is not cl[0].W.array and len(copy) == 3


def test_sequential_list_operations_and_forward():
    l1, l2 = L.Linear(2, 3), L.Linear(3, 1)
    seq = kusari.Sequential(l1, F.relu, l2)
    x = numpy.random.default_rng(0).standard_normal((4, 2)).astype(numpy.float32)
    numpy.testing.assert_allclose(seq(x).array, l2(F.relu(l1(x))).array)
    assert len(seq) == 3 and list(seq.children()) == [l1, l2]
    assert [n for n, _ in seq.namedparams()] == ["/0/W", "/0/b", "/1/W", "/1/b"]
    assert seq.count_by_layer_type("Linear") == 2
    seq.insert(1, F.tanh)
    assert seq[1] is F.tanh and len(seq) == 4
    assert seq.pop(1) is F.tanh
    seq.remove(F.relu)
    assert list(seq) == [l1, l2]
    del seq[0]
    assert [n for n, _ in seq.namedparams()] == ["/0/W", "/0/b"]
    seq[0] = l1
    seq.extend(kusari.Sequential(F.relu))
    assert isinstance(seq[0:1], kusari.Sequential) and seq[0:1][0] is l1
    nested = kusari.Sequential(kusari.Sequential(l1, F.relu), l2).flatten()
    assert list(nested) == [l1, F.relu, l2]
    with pytest.raises(TypeError, match="Sequential.*callable"):
        seq.append(3)


def test_link_hooks_local_and_global():
    calls = []

    class Recorder(kusari.LinkHook):
        name = "Recorder"

        def forward_preprocess(self, args):
            calls.append(("pre", type(args.link).__name__, args.args[0].shape))

        def forward_postprocess(self, args):
            calls.append(("post", type(args.link).__name__, args.out.shape))

    link = L.Linear(2, 3)
    x = numpy.zeros((1, 2), numpy.float32)
    link.add_hook(Recorder())
    link(x)
    assert calls == [("pre", "Linear", (1, 2)), ("post", "Linear", (1, 3))]
    with pytest.raises(KeyError):
        link.add_hook(Recorder())
    link.delete_hook("Recorder")
    calls.clear()
    link(x)
    assert calls == []
    seq = kusari.Sequential(L.Linear(2, 2))
    with Recorder():
        seq(x)
    assert [c[:2] for c in calls] == [("pre", "Sequential"), ("pre", "Linear"), ("post", "Linear"),
                                      ("post", "Sequential")]
    calls.clear()
    seq(x)
    assert calls == []


def test_serialize_round_trip_through_dict():
    src = Tree()
    src.b.W.array[...] = numpy.arange(6).reshape(2, 3)
    src.a.count = 3
    src.a.stat[...] = [4, 5]
    store = {}
    DictionarySerializer(store).save(src)
    assert {"a/W", "a/count", "a/stat", "b/W", "b/b", "p"} <= set(store)
    # an uninitialized parameter is written as Chainer writes it: a 0-d object array holding None
    assert store["a/u"].dtype == object and store["a/u"].item() is None
    dst = Tree()
    NpzDeserializer(store).load(dst)
    numpy.testing.assert_array_equal(dst.b.W.array, src.b.W.array)
    numpy.testing.assert_array_equal(dst.a.stat, [4, 5])
    assert dst.a.count == 3
    lazy = L.Linear(2)
    NpzDeserializer({"W": numpy.ones((2, 5), numpy.float32), "b": numpy.zeros(2, numpy.float32)}).load(lazy)
    assert lazy.W.shape == (2, 5)


@pytest.mark.parametrize("include_uninit", [True, False])
def test_params_follow_namedparams_order(include_uninit):
    class Net(kusari.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.a = L.Linear(3, 2)
                self.lazy = L.Linear(None, 2)
                self.stack = kusari.ChainList(L.Linear(2, 2), kusari.Sequential(L.Linear(2, 1), F.relu))
                self.p = kusari.Parameter(numpy.zeros(2, numpy.float32))

    net = Net()
    expected = [p for _, p in net.namedparams(include_uninit)]
    got = list(net.params(include_uninit))
    assert len(got) == (9 if include_uninit else 8)
    assert [id(p) for p in got] == [id(p) for p in expected]


def _ids(link):
    return [id(p) for p in link.params()]


def test_cached_params_follow_every_change_of_structure():
    import copy as copy_module
    chain = kusari.Chain()
    with chain.init_scope():
        chain.a = kusari.links.Linear(2, 3)
    assert _ids(chain) == [id(chain.a.W), id(chain.a.b)]
    with chain.init_scope():
        chain.b = kusari.links.Linear(3, 1, nobias=True)           # a new child
    assert _ids(chain) == [id(chain.a.W), id(chain.a.b), id(chain.b.W)]
    chain.a.W = kusari.Parameter(numpy.zeros((3, 2), numpy.float32))  # replaced outside init_scope
    assert _ids(chain)[0] == id(chain.a.W)
    del chain.a.b                                                  # a removed parameter
    assert _ids(chain) == [id(chain.a.W), id(chain.b.W)]
    chain.b = kusari.links.Linear(3, 4)                            # a replaced child
    assert _ids(chain)[1:] == [id(chain.b.W), id(chain.b.b)]
    del chain.b
    assert _ids(chain) == [id(chain.a.W)]
    for mode in ("share", "copy", "init"):
        twin = chain.copy(mode)
        assert _ids(twin) == [id(twin.a.W)] and twin.a.W is not chain.a.W
    twin = copy_module.deepcopy(chain)
    assert _ids(twin) == [id(twin.a.W)]


def test_cached_params_of_lists_and_sequentials():
    seq = kusari.Sequential(kusari.links.Linear(2, 2), kusari.functions.relu)
    first = seq[0]
    assert _ids(seq) == [id(first.W), id(first.b)]
    seq.append(kusari.links.Linear(2, 1, nobias=True))
    assert _ids(seq)[-1] == id(seq[2].W)
    seq.insert(0, kusari.links.Linear(2, 2, nobias=True))
    assert _ids(seq)[0] == id(seq[0].W)
    seq[0] = kusari.links.Linear(2, 2, nobias=True)
    assert _ids(seq)[0] == id(seq[0].W)
    del seq[0]
    seq.pop()
    assert _ids(seq) == [id(first.W), id(first.b)]
    seq.remove(first)
    assert _ids(seq) == []
    chain_list = kusari.ChainList(kusari.links.Linear(1, 1))
    assert len(_ids(chain_list)) == 2
    chain_list.append(kusari.links.Linear(1, 1, nobias=True))
    assert _ids(chain_list)[-1] == id(chain_list[1].W)


def test_params_without_uninitialized():
    link = kusari.links.Linear(None, 2)
    assert [p.name for p in link.params()] == ["W", "b"]
    assert [p.name for p in link.params(include_uninit=False)] == ["b"]
    link(numpy.ones((1, 3), numpy.float32))
    assert [p.name for p in link.params(include_uninit=False)] == ["W", "b"]
