import pytest

from kusari.datasets import TransformDataset


def test_transform_is_applied_lazily():
    calls = []

    def double(x):
        calls.append(x)
        return 2 * x

    d = TransformDataset([1, 2, 3], double)
    assert len(d) == 3 and calls == []
    assert d[2] == 6 and d[0:2] == [2, 4]
    assert calls == [3, 1, 2]


def test_transform_must_be_callable():
    with pytest.raises(TypeError, match="TransformDataset: transform must be callable, got int"):
        TransformDataset([1], 3)
