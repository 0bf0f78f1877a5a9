"""Tiny links for the optimizer tests (independent of kusari.links)."""
import numpy
import pytest

import kusari


class _Params(kusari.Link):
    def __init__(self, **arrays):
        super().__init__()
        with self.init_scope():
            for name, array in arrays.items():
                setattr(self, name, kusari.Parameter(numpy.array(array)))


class _Net(kusari.Chain):
    def __init__(self, w, b):
        super().__init__()
        with self.init_scope():
            self.l1 = _Params(W=w, b=b)


@pytest.fixture
def make_params():
    """``make_params(w=array, ...)``: a Link holding one Parameter per keyword."""
    return _Params


@pytest.fixture
def make_net():
    """``make_net(w, b)``: a Chain with child ``l1`` holding Parameters ``W`` and ``b``."""
    return _Net
