import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset.graph_dataset import feature_converters as fc  # noqa: E402
from kusari.chem.dataset.graph_dataset.base_graph_data import BaseGraphData  # noqa: E402

BATCH = [BaseGraphData(x=numpy.array([1, 2, 3]), edge_index=numpy.array([[0, 1], [1, 2]]), n=3),
         BaseGraphData(x=numpy.array([4, 5]), edge_index=numpy.array([[0], [1]]), n=2)]


def test_batch_with_and_without_padding():
    numpy.testing.assert_array_equal(fc.batch_with_padding("x", BATCH, pad=-1), [[1, 2, 3], [4, 5, -1]])
    numpy.testing.assert_array_equal(fc.batch_without_padding("n", BATCH), [3, 2])


def test_concat_and_concat_with_padding():
    numpy.testing.assert_array_equal(fc.concat("x", BATCH), [1, 2, 3, 4, 5])
    numpy.testing.assert_array_equal(fc.concat_with_padding("x", BATCH), [1, 2, 3, 4, 5, 0])


def test_shift_concat_renumbers_nodes():
    numpy.testing.assert_array_equal(fc.shift_concat("edge_index", BATCH), [[0, 1, 3], [1, 2, 4]])
    # with padding every graph takes max_n = 3 slots
    numpy.testing.assert_array_equal(fc.shift_concat_with_padding("edge_index", BATCH),
                                     [[0, 1, 3], [1, 2, 4]])
    three = BATCH + [BaseGraphData(x=numpy.array([7]), edge_index=numpy.array([[0], [0]]))]
    numpy.testing.assert_array_equal(fc.shift_concat("edge_index", three)[:, -1], [5, 5])
    numpy.testing.assert_array_equal(fc.shift_concat_with_padding("edge_index", three)[:, -1], [6, 6])
