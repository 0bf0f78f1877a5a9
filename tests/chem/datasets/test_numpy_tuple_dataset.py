import os

import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.datasets.numpy_tuple_dataset import NumpyTupleDataset  # noqa: E402


def _ragged(*arrays):
    column = numpy.empty(len(arrays), dtype=object)
    for i, a in enumerate(arrays):
        column[i] = a
    return column


@pytest.fixture
def regular():
    x = numpy.arange(12, dtype=numpy.float32).reshape(4, 3)
    t = numpy.array([0, 1, 0, 1], dtype=numpy.int32)
    return NumpyTupleDataset(x, t)


def test_indexing(regular):
    x, t = regular.get_datasets()
    assert len(regular) == 4
    item = regular[2]
    assert isinstance(item, tuple)
    numpy.testing.assert_array_equal(item[0], x[2])
    assert item[1] == 0
    batch = regular[1:3]
    assert isinstance(batch, list) and len(batch) == 2
    numpy.testing.assert_array_equal(batch[1][0], x[2])
    assert [b[1] for b in regular[numpy.array([3, 0])]] == [1, 0]


def test_lengths_must_match():
    with pytest.raises(ValueError, match="length"):
        NumpyTupleDataset(numpy.zeros(3), numpy.zeros(2))


def test_save_load_round_trip_keeps_dtypes(regular, tmp_path):
    path = tmp_path / "data.npz"
    NumpyTupleDataset.save(str(path), regular)
    assert sorted(os.listdir(tmp_path)) == ["data.npz"]   # no temporary file left behind
    loaded = NumpyTupleDataset.load(str(path))
    for a, b in zip(loaded.get_datasets(), regular.get_datasets()):
        assert a.dtype == b.dtype
        numpy.testing.assert_array_equal(a, b)


def test_save_appends_npz_like_numpy(regular, tmp_path):
    NumpyTupleDataset.save(str(tmp_path / "data"), regular)
    assert os.listdir(tmp_path) == ["data.npz"]


def test_save_rejects_other_types(tmp_path):
    with pytest.raises(TypeError, match="NumpyTupleDataset"):
        NumpyTupleDataset.save(str(tmp_path / "x.npz"), [numpy.zeros(2)])


def test_load_missing_file_returns_none(tmp_path):
    assert NumpyTupleDataset.load(str(tmp_path / "absent.npz")) is None


def test_ragged_arrays_need_explicit_pickle_opt_in(tmp_path):
    atoms = _ragged(numpy.array([6, 8], numpy.int32), numpy.array([6, 6, 8], numpy.int32))
    labels = numpy.array([[0.5], [1.5]], dtype=numpy.float32)
    path = str(tmp_path / "ragged.npz")
    NumpyTupleDataset.save(path, NumpyTupleDataset(atoms, labels))
    with pytest.raises(ValueError, match="allow_pickle=True"):
        NumpyTupleDataset.load(path)
    loaded = NumpyTupleDataset.load(path, allow_pickle=True)
    got_atoms, got_labels = loaded.get_datasets()
    assert got_atoms.dtype == object
    numpy.testing.assert_array_equal(got_atoms[1], [6, 6, 8])
    assert got_atoms[1].dtype == numpy.int32 and got_labels.dtype == numpy.float32


def test_file_is_readable_as_plain_savez_layout(regular, tmp_path):
    path = str(tmp_path / "data.npz")
    NumpyTupleDataset.save(path, regular)
    with numpy.load(path) as npz:
        assert sorted(npz.files) == ["arr_0", "arr_1"]
        numpy.testing.assert_array_equal(npz["arr_1"], regular.get_datasets()[1])


def test_converter_is_concat_mols(regular):
    converters = pytest.importorskip("kusari.chem.dataset.converters")
    assert regular.converter is converters.concat_mols
