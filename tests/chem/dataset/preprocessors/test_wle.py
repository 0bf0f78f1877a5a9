import json
from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset.preprocessors import wle  # noqa: E402
from kusari.chem.datasets.numpy_tuple_dataset import NumpyTupleDataset  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "wle.npz"


def _column(values):
    try:
        return numpy.stack(values)
    except ValueError:
        column = numpy.empty(len(values), dtype=object)
        column[:] = values
        return column


def _nfp_dataset(*molecules):
    """NFP-style (atoms, adjacency with self loops, labels) from (atomic numbers, bonds) pairs."""
    atoms, adjs = [], []
    for numbers, bonds in molecules:
        adj = numpy.eye(len(numbers), dtype=numpy.float32)
        for i, j in bonds:
            adj[i, j] = adj[j, i] = 1
        atoms.append(numpy.array(numbers, dtype=numpy.int32))
        adjs.append(adj)
    labels = numpy.arange(len(molecules), dtype=numpy.float32)[:, None]
    return NumpyTupleDataset(_column(atoms), _column(adjs), labels)


ETHANOL = ([6, 6, 8], [(0, 1), (1, 2)])
METHANOL = ([6, 8], [(0, 1)])
PROPANE = ([6, 6, 6], [(0, 1), (1, 2)])


def test_wle_one_round_by_hand():
    (train, test), labels, freq = wle.apply_wle_for_datasets(
        (_nfp_dataset(ETHANOL, METHANOL), _nfp_dataset(PROPANE)))
    assert labels == ["6-6", "6-6.8", "8-6", "6-8", "6-6.6"]
    assert list(freq.values()) == [3, 1, 2, 1, 1]
    numpy.testing.assert_array_equal(train[0][0], [0, 1, 2])
    numpy.testing.assert_array_equal(train[1][0], [3, 2])
    numpy.testing.assert_array_equal(test[0][0], [0, 4, 0])
    numpy.testing.assert_array_equal(test[0][1], _nfp_dataset(PROPANE)[0][1])   # adjacency kept
    assert test[0][2] == 0 and wle.findmaxidx((train, test)) == 5


def test_wle_cutoff_falls_back_to_the_atom():
    (train,), labels, freq = wle.apply_wle_for_datasets((_nfp_dataset(ETHANOL, METHANOL),), cutoff=1)
    assert labels == ["6", "8-6"] and list(freq.values()) == [3, 2]
    numpy.testing.assert_array_equal(train[0][0], [0, 0, 1])


def test_cwle_keeps_atoms_and_adds_neighbourhoods():
    (train,), labels, _ = wle.apply_cwle_for_datasets((_nfp_dataset(ETHANOL, METHANOL),))
    assert labels == ["6", "6.8", "8"]
    atoms, _, neighbourhood, _ = train[0]
    numpy.testing.assert_array_equal(atoms, [6, 6, 8])
    numpy.testing.assert_array_equal(neighbourhood, [0, 1, 0])
    assert wle.findmaxidx((train,), "wle_label") == 3 and wle.findmaxidx((train,)) == 9


def test_bad_arguments():
    datasets = (_nfp_dataset(ETHANOL),)
    with pytest.raises(ValueError, match="apply_cwle_for_datasets: k must be"):
        wle.apply_cwle_for_datasets(datasets, k=0)
    with pytest.raises(ValueError, match="apply_wle_for_datasets: k must be"):
        wle.apply_wle_for_datasets(datasets, k=0)
    without_labels = (NumpyTupleDataset(*datasets[0].get_datasets()[:2]),)
    with pytest.raises(ValueError, match="findmaxidx: target='wle_label' is item 2 .* 2 items"):
        wle.findmaxidx(without_labels, "wle_label")
    with pytest.raises(ValueError, match="findmaxidx: target must be"):
        wle.findmaxidx(datasets, "bond")


# --- parity with Chainer Chemistry 0.7.1 (tests/chem/fixtures/wle.npz) ---

@pytest.fixture(scope="module")
def fixture():
    if not FIXTURE.exists():
        pytest.skip(f"{FIXTURE} is missing (written by tools/make_chemistry_fixture.py)")
    with numpy.load(FIXTURE) as npz:
        return {key: npz[key] for key in npz.files}


def _stored_datasets(fixture, prefix):
    datasets, layouts = [], []
    for s in range(3):
        layout = json.loads(str(fixture[f"{prefix}/{s}/layout"]))
        n = layout[0]["shape"][0]
        datasets.append([[fixture[f"{prefix}/{s}/{i}/{k}"] for i in range(n)] for k in range(len(layout))])
        layouts.append(layout)
    return datasets, layouts


def _as_numpy_tuple_datasets(stored, layouts):
    return tuple(NumpyTupleDataset(*[_column(values) if spec["dtype"] == "object" else numpy.stack(values)
                                     for values, spec in zip(columns, layout)])
                 for columns, layout in zip(stored, layouts))


@pytest.mark.parametrize("variant", ["wle_k1", "wle_cutoff1_k2", "cwle_k1", "cwle_k2"])
def test_parity_with_chainer_chemistry(fixture, variant):
    inputs = _as_numpy_tuple_datasets(*_stored_datasets(fixture, "input"))
    call = json.loads(str(fixture[variant + "/call"]))
    datasets, labels, freq = getattr(wle, call["function"])(inputs, **call["kwargs"])

    expected, layouts = _stored_datasets(fixture, variant)
    for dataset, columns, layout in zip(datasets, expected, layouts):
        got_layout = [{"dtype": str(c.dtype), "shape": list(c.shape)} for c in dataset.get_datasets()]
        assert got_layout == layout
        for k, values in enumerate(columns):
            for i, value in enumerate(values):
                got = dataset[i][k]
                assert got.dtype == value.dtype and got.shape == value.shape, (variant, i, k)
                numpy.testing.assert_array_equal(got, value)
    assert labels == fixture[variant + "/expanded_labels"].tolist()
    assert list(freq) == fixture[variant + "/frequency_labels"].tolist()
    assert list(freq.values()) == fixture[variant + "/frequency_counts"].tolist()
    assert wle.findmaxidx(datasets, "atom_label") == fixture[variant + "/findmaxidx_atom_label"]
    if call["function"] == "apply_cwle_for_datasets":
        assert wle.findmaxidx(datasets, "wle_label") == fixture[variant + "/findmaxidx_wle_label"]
    assert wle.findmaxidx(inputs) == fixture["input/findmaxidx_atom_label"]
