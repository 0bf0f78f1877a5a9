"""PickableSequentialChain: layer registration, pick, remove_unused, copy."""
import numpy
import pytest

import kusari.functions as F
import kusari.links as L
from kusari.vision.links import PickableSequentialChain


def _chain():
    numpy.random.seed(0)
    chain = PickableSequentialChain()
    with chain.init_scope():
        chain.l1 = L.Linear(3, 4)
        chain.l1_relu = F.relu
        chain.l2 = L.Linear(4, 2)
        chain.l2_tanh = F.tanh
    return chain


X = numpy.arange(6, dtype=numpy.float32).reshape(2, 3) / 6


def test_layer_names_in_registration_order():
    chain = _chain()
    assert chain.layer_names == ["l1", "l1_relu", "l2", "l2_tanh"]
    chain.not_a_layer = F.relu  # outside init_scope
    assert "not_a_layer" not in chain.layer_names
    assert sorted(name for name, _ in chain.namedparams()) == ["/l1/W", "/l1/b", "/l2/W", "/l2/b"]


def test_pick_forms():
    chain = _chain()
    h1 = numpy.maximum(X @ chain.l1.W.array.T + chain.l1.b.array, 0)
    h2 = h1 @ chain.l2.W.array.T + chain.l2.b.array
    assert chain.pick is None
    numpy.testing.assert_allclose(chain(X).array, numpy.tanh(h2), rtol=1e-6)
    chain.pick = "l1_relu"
    assert chain.pick == "l1_relu"
    numpy.testing.assert_allclose(chain(X).array, h1, rtol=1e-6)
    chain.pick = ["l2", "l1_relu"]
    assert chain.pick == ("l2", "l1_relu")
    l2, l1_relu = chain(X)
    numpy.testing.assert_allclose(l2.array, h2, rtol=1e-6)
    numpy.testing.assert_allclose(l1_relu.array, h1, rtol=1e-6)
    chain.pick = ("l1",)
    assert isinstance(chain(X), tuple) and len(chain(X)) == 1


def test_forward_stops_at_the_last_picked_layer():
    chain = _chain()
    chain.pick = "l1"
    calls = []
    chain.l2.forward = lambda x: calls.append(x)
    chain(X)
    assert calls == []


def test_unknown_layer_is_refused():
    chain = _chain()
    with pytest.raises(ValueError, match=r"PickableSequentialChain: pick=\('l1', 'l9'\) names 'l9', which is "
                                         r"not a layer; layers: l1, l1_relu, l2, l2_tanh"):
        chain.pick = ("l1", "l9")
    assert chain.pick is None


def test_remove_unused_deletes_the_later_layers():
    chain = _chain()
    chain.pick = ("l1_relu",)
    chain.remove_unused()
    assert chain.layer_names == ["l1", "l1_relu"]
    assert not hasattr(chain, "l2") and sorted(n for n, _ in chain.namedparams()) == ["/l1/W", "/l1/b"]
    assert chain(X)[0].shape == (2, 4)
    with pytest.raises(AttributeError, match="layer 'l1_relu' is picked"):
        del chain.l1_relu


def test_remove_unused_without_pick_keeps_everything():
    chain = _chain()
    chain.remove_unused()
    assert chain.layer_names == ["l1", "l1_relu", "l2", "l2_tanh"]


def test_copy_has_its_own_layer_list_and_pick():
    chain = _chain()
    chain.pick = "l2"
    copied = chain.copy()
    assert copied.pick == "l2" and copied.layer_names == chain.layer_names
    copied.pick = None
    copied.remove_unused()
    del copied.l2_tanh
    assert chain.layer_names == ["l1", "l1_relu", "l2", "l2_tanh"] and chain.pick == "l2"
    assert copied.l1.W is not chain.l1.W and copied.l1.W.array is chain.l1.W.array


def test_empty_chain():
    with pytest.raises(ValueError, match="PickableSequentialChain: no layer is registered"):
        PickableSequentialChain()(X)
