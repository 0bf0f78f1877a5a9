import pytest

from kusari.datasets import ConcatenatedDataset


def test_datasets_follow_each_other():
    d = ConcatenatedDataset([0, 1, 2], [], ["a", "b"])
    assert len(d) == 5
    assert [d[i] for i in range(5)] == [0, 1, 2, "a", "b"]
    assert d[-1] == "b" and d[-5] == 0
    assert d[1:4] == [1, 2, "a"]


def test_out_of_range():
    d = ConcatenatedDataset([0, 1])
    with pytest.raises(IndexError, match="ConcatenatedDataset: index 2 is out of range for length 2"):
        d[2]
    with pytest.raises(IndexError):
        d[-3]
    assert len(ConcatenatedDataset()) == 0
