"""NumpyTupleDataset files: Chainer Chemistry 0.7.1's load here, and kusari's have the same member layout.

numpy_tuple_dataset.npz is ``NumpyTupleDataset.save`` of upstream's ragged NFP parse of molecules.csv
(object arrays, pickled); numpy_tuple_dataset_padded.npz the same with ``out_size=32``. parsers.npz
holds the same parse, example by example, written without pickle.
"""
import zipfile
from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")
pytest.importorskip("pandas")

from kusari.chem.dataset.parsers import CSVFileParser
from kusari.chem.dataset.preprocessors import NFPPreprocessor
from kusari.chem.datasets import NumpyTupleDataset

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RAGGED = FIXTURES / "numpy_tuple_dataset.npz"
PADDED = FIXTURES / "numpy_tuple_dataset_padded.npz"
PADDED_SIZE = 32


def _require(*names):
    for name in names:
        if not (FIXTURES / name).exists():
            pytest.skip(f"Chainer Chemistry fixture {name} is missing")


def _parsed_examples():
    with numpy.load(FIXTURES / "parsers.npz") as npz:
        n_examples = 1 + max(int(key.split("/")[1]) for key in npz.files
                             if key.startswith("nfp/") and key.split("/")[1].isdigit())
        return [tuple(npz[f"nfp/{i}/{k}"] for k in range(3)) for i in range(n_examples)]


def _kusari_dataset(out_size):
    parser = CSVFileParser(NFPPreprocessor(out_size=out_size), labels=["label_a", "label_b"],
                           smiles_col="smiles")
    return parser.parse(str(FIXTURES / "molecules.csv"))["dataset"]


def _member_layout(path):
    """Per member of the npz, in file order: its name, npy format version, shape, order and dtype,
    and for an object array the dtype and rank of each item."""
    read_header = {(1, 0): numpy.lib.format.read_array_header_1_0,
                   (2, 0): numpy.lib.format.read_array_header_2_0}
    layout = []
    with zipfile.ZipFile(path) as archive, numpy.load(path, allow_pickle=True) as npz:
        for name in archive.namelist():
            with archive.open(name) as f:
                version = numpy.lib.format.read_magic(f)
                header = read_header[version](f)
            array = npz[name.removesuffix(".npy")]
            items = [(item.dtype, item.ndim) for item in array] if array.dtype == object else None
            layout.append((name, version, header, items))
    return layout


def test_ragged_file_is_refused_without_allow_pickle():
    _require(RAGGED.name)
    with pytest.raises(ValueError, match=r"NumpyTupleDataset\.load: member 'arr_0' of .*"
                                         r"numpy_tuple_dataset\.npz .*pickle.*allow_pickle=True"):
        NumpyTupleDataset.load(RAGGED)


def test_ragged_file_loads_with_allow_pickle():
    _require(RAGGED.name, "parsers.npz")
    dataset = NumpyTupleDataset.load(RAGGED, allow_pickle=True)
    examples = _parsed_examples()
    atoms, adjacency, labels = dataset.get_datasets()
    assert (atoms.dtype, atoms.shape) == (numpy.dtype(object), (len(examples),))
    assert (adjacency.dtype, adjacency.shape) == (numpy.dtype(object), (len(examples),))
    numpy.testing.assert_array_equal(labels, numpy.stack([e[2] for e in examples]), strict=True)
    for i, example in enumerate(examples):
        for k, want in enumerate(example):
            numpy.testing.assert_array_equal(dataset[i][k], want, err_msg=f"example {i}, array {k}",
                                             strict=True)


def test_padded_file_loads_without_pickle():
    _require(PADDED.name, "molecules.csv")
    dataset = NumpyTupleDataset.load(PADDED)
    # upstream's file against kusari's parse: the padded preprocessing matches too
    for loaded, parsed in zip(dataset.get_datasets(), _kusari_dataset(PADDED_SIZE).get_datasets(),
                              strict=True):
        numpy.testing.assert_array_equal(loaded, parsed, strict=True)


@pytest.mark.parametrize("peer_file, out_size", [(RAGGED, -1), (PADDED, PADDED_SIZE)],
                         ids=["ragged", "padded"])
def test_saved_file_has_the_peer_layout(peer_file, out_size, tmp_path):
    _require(peer_file.name, "molecules.csv")
    path = tmp_path / peer_file.name
    NumpyTupleDataset.save(path, _kusari_dataset(out_size))
    assert _member_layout(path) == _member_layout(peer_file)
