import random

import numpy
import pytest

import kusari
from kusari.rl.utils import set_random_seed


def _draws():
    return random.random(), numpy.random.rand(3).tolist(), kusari.links.Linear(3, 2).W.array.copy()


def test_same_seed_repeats_python_numpy_and_initializers():
    set_random_seed(123)
    first = _draws()
    set_random_seed(123)
    second = _draws()
    assert first[:2] == second[:2]
    numpy.testing.assert_array_equal(first[2], second[2])


def test_other_seed_differs():
    set_random_seed(1)
    first = _draws()
    set_random_seed(2)
    second = _draws()
    assert first[0] != second[0] and first[1] != second[1]


@pytest.mark.parametrize("seed", [-1, 2 ** 32, 1.5, True, "3"])
def test_bad_seed(seed):
    with pytest.raises(ValueError, match="set_random_seed"):
        set_random_seed(seed)
