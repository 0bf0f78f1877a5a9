"""kusari.vision.chainer_experimental.datasets.sliceable.TupleDataset against ChainerCV 0.13.1."""
import dataset_parity
import pytest

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset, TupleDataset


@pytest.mark.parametrize("name", dataset_parity.scenario_names("tuple_"))
def test_matches_chainercv(name):
    dataset_parity.check_scenario(name)


def test_reads_only_the_sliceable_values_asked_for():
    calls = []

    class Logged(GetterDataset):
        def __init__(self):
            super().__init__()
            self.add_getter("a", lambda i: calls.append(("a", i)) or i)
            self.add_getter("b", lambda i: calls.append(("b", i)) or -i)

        def __len__(self):
            return 3

    dataset = TupleDataset(Logged(), ("c", [7, 8, 9]))
    assert list(dataset.slice[:, ["c", "b"]]) == [(7, 0), (8, -1), (9, -2)]
    assert calls == [("b", 0), ("b", 1), ("b", 2)]


def test_errors_name_the_datasets():
    with pytest.raises(ValueError, match="dataset 1 has 3 examples and dataset 0 has 2"):
        TupleDataset([1, 2], ("x", [1, 2, 3]))
    with pytest.raises(ValueError, match="TupleDataset: at least one dataset is required"):
        TupleDataset()
