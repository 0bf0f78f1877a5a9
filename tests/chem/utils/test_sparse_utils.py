"""convert_sparse_with_edge_type on a hand-made case; is_sparse."""
import numpy
import pytest
from kusari.chem.utils import convert_sparse_with_edge_type, is_sparse
from kusari.utils import CooMatrix


def test_entries_go_to_their_type_matrix_in_order():
    data = numpy.array([[1.0, 2.0, 3.0]], numpy.float32)
    row = numpy.array([[0, 1, 2]], numpy.int32)
    col = numpy.array([[1, 2, 0]], numpy.int32)
    edge_type = numpy.array([[1, 0, 1]], numpy.int32)
    coo = convert_sparse_with_edge_type(data, row, col, 3, edge_type, 2)
    assert is_sparse(coo) and not is_sparse(data)
    numpy.testing.assert_array_equal(coo.data.array, [[2.0, 0.0], [1.0, 3.0]])
    numpy.testing.assert_array_equal(coo.row, [[1, 0], [0, 2]])
    numpy.testing.assert_array_equal(coo.col, [[2, 0], [1, 0]])
    dense = CooMatrix(coo.data.array, coo.row, coo.col, coo.shape).to_dense()
    assert dense[0, 1, 2] == 2.0 and dense[1, 0, 1] == 1.0 and dense[1, 2, 0] == 3.0 and dense.sum() == 6.0


def test_shape_checks():
    with pytest.raises(ValueError, match="edge_type"):
        convert_sparse_with_edge_type(numpy.zeros((1, 2)), numpy.zeros((1, 2), numpy.int32),
                                      numpy.zeros((1, 2), numpy.int32), 2, numpy.zeros((1, 3), numpy.int32), 2)
