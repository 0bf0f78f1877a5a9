import numpy
import pytest

from kusari.datasets import DictDataset


def test_examples_are_dicts():
    d = DictDataset(x=numpy.arange(3), y=["a", "b", "c"])
    assert len(d) == 3
    assert d[1] == {"x": 1, "y": "b"}
    assert d[0:2] == [{"x": 0, "y": "a"}, {"x": 1, "y": "b"}]
    assert DictDataset(x=numpy.arange(3))[numpy.array([2, 0])] == [{"x": 2}, {"x": 0}]


def test_errors():
    with pytest.raises(ValueError, match="DictDataset: no datasets are given"):
        DictDataset()
    with pytest.raises(ValueError, match=r"DictDataset: the datasets have different lengths \{'x': 2, 'y': 1\}"):
        DictDataset(x=[1, 2], y=[1])
