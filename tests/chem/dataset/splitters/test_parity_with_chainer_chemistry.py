"""The splitters against the indices Chainer Chemistry 0.7.1 returned for the same calls (splitters.npz)."""
import json
from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset import splitters
from kusari.chem.datasets import NumpyTupleDataset

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "splitters.npz"

CALLS = ["random", "stratified_regression", "stratified_classification", "scaffold",
         "deepchem_scaffold", "time"]
# the fixture script passed these arguments as Python lists (the npz stores them as arrays)
LIST_ARGUMENTS = {"smiles_list", "time_list"}


@pytest.fixture(scope="module")
def expected():
    if not FIXTURE.exists():
        pytest.skip(f"Chainer Chemistry fixture {FIXTURE.name} is missing")
    with numpy.load(FIXTURE) as npz:
        return {key: npz[key] for key in npz.files}


def test_every_recorded_call_is_checked(expected):
    assert sorted(key[:-len("/call")] for key in expected if key.endswith("/call")) == sorted(CALLS)


@pytest.mark.parametrize("name", CALLS)
def test_indices_match(name, expected):
    call = json.loads(str(expected[f"{name}/call"]))
    assert call["method"] == "train_valid_test_split"
    assert call["dataset"] == "NumpyTupleDataset(<entry dataset_x>, <entry regression_labels>)"
    assert call["splitter"].endswith("()")
    splitter = getattr(splitters, call["splitter"][:-2])()
    kwargs = {}
    for key, value in call["kwargs"].items():
        if isinstance(value, str) and value.startswith("<entry "):
            value = expected[value[len("<entry "):-1]]
            value = value.tolist() if key in LIST_ARGUMENTS else value
        kwargs[key] = value
    dataset = NumpyTupleDataset(expected["dataset_x"], expected["regression_labels"])

    parts = splitter.train_valid_test_split(dataset, **kwargs)

    assert len(parts) == 3
    for part, indices in zip(("train", "valid", "test"), parts):
        numpy.testing.assert_array_equal(indices, expected[f"{name}/{part}"], err_msg=f"{name}/{part}",
                                         strict=True)
