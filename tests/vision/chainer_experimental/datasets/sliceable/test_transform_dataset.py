"""kusari.vision.chainer_experimental.datasets.sliceable.TransformDataset against ChainerCV 0.13.1."""
import dataset_parity
import pytest

from kusari.vision.chainer_experimental.datasets.sliceable import TransformDataset


@pytest.mark.parametrize("name", dataset_parity.scenario_names("transform_"))
def test_matches_chainercv(name):
    dataset_parity.check_scenario(name)


def test_without_keys_the_first_example_is_read_once():
    calls = []
    dataset = TransformDataset([1, 2, 3], lambda x: calls.append(x) or (x, -x))
    assert dataset.keys == (None, None) and calls == [1]
    assert dataset[2] == (3, -3)
