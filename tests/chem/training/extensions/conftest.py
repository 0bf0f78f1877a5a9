"""run_evaluator: an evaluator called (no trainer) on fixed predictions served by an identity link."""
import numpy
import pytest

import kusari
from kusari.iterators import SerialIterator


class IdentityLink(kusari.Link):
    """Returns its input: the evaluators score the predictions they are given."""

    def forward(self, x):
        return x


@pytest.fixture
def run_evaluator():
    """``run_evaluator(cls, y, t, batch_size=5, **kwargs)`` -> the observation dict it returns."""
    from kusari.chem.datasets import NumpyTupleDataset

    def run(evaluator_class, y, t, batch_size=5, **kwargs):
        iterator = SerialIterator(NumpyTupleDataset(numpy.asarray(y), numpy.asarray(t)), batch_size,
                                  repeat=False, shuffle=False)
        return evaluator_class(iterator, IdentityLink(), **kwargs)()
    return run
