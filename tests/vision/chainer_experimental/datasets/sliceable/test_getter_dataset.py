"""kusari.vision.chainer_experimental.datasets.sliceable.GetterDataset against ChainerCV 0.13.1: keys, which
getters run, the keys setter."""
import dataset_parity
import pytest

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset


@pytest.mark.parametrize("name", dataset_parity.scenario_names("getter_"))
def test_matches_chainercv(name):
    dataset_parity.check_scenario(name)


def test_the_keys_setter_names_the_class_and_the_keys():
    class Pairs(GetterDataset):
        def __init__(self):
            super().__init__()
            self.add_getter(("a", "b"), lambda i: (i, i))

        def __len__(self):
            return 2

    dataset = Pairs()
    with pytest.raises(KeyError, match=r"Pairs.keys: no key 'c' \(keys: \('a', 'b'\)\)"):
        dataset.keys = ("a", "c")
    dataset.keys = "b"
    assert dataset.keys == "b" and dataset[1] == 1


def test_len_is_required():
    with pytest.raises(NotImplementedError, match="GetterDataset must implement __len__"):
        len(GetterDataset())
