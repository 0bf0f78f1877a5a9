import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset.preprocessors import wle_io  # noqa: E402
from kusari.chem.datasets.numpy_tuple_dataset import NumpyTupleDataset  # noqa: E402


def _ragged(*arrays):
    column = numpy.empty(len(arrays), dtype=object)
    column[:] = list(arrays)
    return column


def test_round_trip_keeps_relational_adjacency():
    adj_a = numpy.arange(2 * 3 * 3, dtype=numpy.float32).reshape(2, 3, 3)
    adj_b = numpy.arange(2 * 2 * 2, dtype=numpy.float32).reshape(2, 2, 2)
    dataset = NumpyTupleDataset(_ragged(numpy.array([6, 6, 8]), numpy.array([6, 8])),
                                _ragged(adj_a, adj_b), numpy.array([[1.0], [2.0]]))
    atoms, adjs, signals = wle_io.load_dataset_elements([dataset])
    assert adjs[0][0].shape == (3, 2, 3)   # relations on axis 1
    rebuilt, = wle_io.create_datasets(atoms, adjs, signals)
    numpy.testing.assert_array_equal(rebuilt[0][1], adj_a)
    numpy.testing.assert_array_equal(rebuilt[1][1], adj_b)
    assert rebuilt.get_datasets()[0].dtype == object
    numpy.testing.assert_array_equal(rebuilt.get_datasets()[2], [[1.0], [2.0]])


def test_uniform_molecules_give_stacked_columns():
    adj = numpy.ones((2, 4, 2, 2), dtype=numpy.float32)   # padded: every molecule (R=4, N=2)
    dataset = NumpyTupleDataset(numpy.array([[6, 8], [6, 6]], dtype=numpy.int32), adj,
                                numpy.zeros((2, 1), dtype=numpy.float32))
    rebuilt, = wle_io.create_datasets(*wle_io.load_dataset_elements([dataset]),
                                      wle_arrays=[[numpy.zeros(2, numpy.int32)] * 2])
    columns = rebuilt.get_datasets()
    assert [c.shape for c in columns] == [(2, 2), (2, 4, 2, 2), (2, 2), (2, 1)]
    assert columns[0].dtype == numpy.int32 and columns[3].dtype == numpy.float32


def test_mismatched_sets():
    with pytest.raises(ValueError, match="create_datasets: .*atom_arrays 2, adj_arrays 1"):
        wle_io.create_datasets([[], []], [[]], [[], []])


def test_examples_without_labels():
    with pytest.raises(ValueError, match="load_dataset_elements: example 0 of dataset 0 has 2 items"):
        wle_io.load_dataset_elements([NumpyTupleDataset(numpy.zeros((1, 2)), numpy.zeros((1, 2, 2)))])
