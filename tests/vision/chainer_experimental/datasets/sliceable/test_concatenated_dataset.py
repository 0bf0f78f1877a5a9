"""kusari.vision.chainer_experimental.datasets.sliceable.ConcatenatedDataset against ChainerCV 0.13.1."""
import dataset_parity
import pytest

from kusari.vision.chainer_experimental.datasets.sliceable import ConcatenatedDataset, TupleDataset


@pytest.mark.parametrize("name", dataset_parity.scenario_names("concatenated_"))
def test_matches_chainercv(name):
    dataset_parity.check_scenario(name)


def test_keys_must_agree():
    a = TupleDataset(("x", [1]), ("y", [2]))
    with pytest.raises(ValueError, match=r"dataset 1 has \('y', 'x'\) and dataset 0 has \('x', 'y'\)"):
        ConcatenatedDataset(a, a.slice[:, ["y", "x"]])
