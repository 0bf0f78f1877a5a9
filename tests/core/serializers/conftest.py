"""Tiny links for the serializer tests (independent of kusari.links)."""
import numpy
import pytest

import kusari


class _Leaf(kusari.Link):
    def __init__(self, w, b):
        super().__init__()
        with self.init_scope():
            self.W = kusari.Parameter(numpy.array(w, numpy.float32))
            self.b = kusari.Parameter(numpy.array(b, numpy.float32))
        self.add_persistent("count", 0)
        self.add_persistent("running", numpy.zeros(2, numpy.float32))


class _Net(kusari.Chain):
    def __init__(self, seed=0):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            self.l1 = _Leaf(rng.normal(size=(2, 3)), rng.normal(size=3))
            self.l2 = _Leaf(rng.normal(size=(3, 1)), rng.normal(size=1))


@pytest.fixture
def make_net():
    """``make_net(seed)``: a Chain ``l1``, ``l2`` of leaves with ``W``, ``b``, ``count``, ``running``."""
    return _Net
