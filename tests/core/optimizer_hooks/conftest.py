"""A tiny two-parameter link for the hook tests (independent of kusari.links)."""
import numpy
import pytest

import kusari


class _Params(kusari.Link):
    def __init__(self, **arrays):
        super().__init__()
        with self.init_scope():
            for name, array in arrays.items():
                setattr(self, name, kusari.Parameter(numpy.array(array, numpy.float32)))


@pytest.fixture
def link():
    """Parameters ``a`` (2x2) and ``b`` (3,) with fixed values and gradients."""
    lk = _Params(a=[[1.0, -2.0], [0.5, 0.0]], b=[3.0, -1.0, 2.0])
    lk.a.grad = numpy.array([[0.5, 1.0], [-2.0, 4.0]], numpy.float32)
    lk.b.grad = numpy.array([1.0, -3.0, 0.25], numpy.float32)
    return lk
