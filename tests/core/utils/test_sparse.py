import numpy
import pytest

import kusari
from kusari.utils.sparse import CooMatrix, get_order, to_coo


def test_to_coo_roundtrip_and_layout():
    x = numpy.array([[0, 2, 0], [-1, 0, 3]], numpy.float32)
    sp = to_coo(x)
    numpy.testing.assert_array_equal(sp.data.array, [2, -1, 3])
    numpy.testing.assert_array_equal(sp.row, [0, 1, 1])
    numpy.testing.assert_array_equal(sp.col, [1, 0, 2])
    assert sp.row.dtype == numpy.int32 and sp.shape == (2, 3) and sp.order == "C"
    assert not sp.data.requires_grad
    numpy.testing.assert_array_equal(sp.to_dense(), x)


def test_to_coo_batch_pads_to_ldnz():
    x = numpy.zeros((2, 3, 3), numpy.float64)
    x[0, 1, 2] = 5.0
    x[1] = numpy.diag([1.0, 2.0, 3.0])
    sp = to_coo(x, ldnz=4, requires_grad=True)
    assert sp.data.shape == (2, 4) and sp.shape == (3, 3) and sp.data.requires_grad
    numpy.testing.assert_array_equal(sp.row[0], [1, -1, -1, -1])
    numpy.testing.assert_array_equal(sp.to_dense(), x)


def test_to_dense_adds_repeated_positions_and_skips_padding():
    sp = CooMatrix(numpy.array([1.0, 2.0, 9.0]), numpy.array([0, 0, -1]), numpy.array([1, 1, -1]), (2, 2))
    numpy.testing.assert_array_equal(sp.to_dense(), [[0.0, 3.0], [0.0, 0.0]])


def test_coo_keeps_a_variable_as_data():
    v = kusari.Variable(numpy.ones(2, numpy.float32))
    sp = CooMatrix(v, numpy.array([0, 1]), numpy.array([1, 0]), (2, 2))
    assert sp.data is v


def test_get_order():
    assert get_order(numpy.array([0, 0, 1, 2]), numpy.array([0, 2, 1, 0])) == "C"
    assert get_order(numpy.array([1, 0, 2, 0]), numpy.array([0, 1, 1, 2])) == "F"
    assert get_order(numpy.array([1, 0, 2]), numpy.array([0, 2, 1])) == "other"
    assert get_order(numpy.array([[0, 1, -1]]), numpy.array([[2, 0, -1]])) == "C"


def test_coo_matrix_errors():
    d, i = numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.int32)
    with pytest.raises(ValueError, match="CooMatrix: data must be 1- or 2-dimensional"):
        CooMatrix(numpy.ones((1, 1, 3)), i, i, (2, 2))
    with pytest.raises(ValueError, match=r"CooMatrix: row and col must have data's shape \(3,\)"):
        CooMatrix(d, numpy.zeros(2, numpy.int32), i, (2, 2))
    with pytest.raises(TypeError, match="CooMatrix: row and col must be integer arrays"):
        CooMatrix(d, i.astype(numpy.float32), i, (2, 2))
    with pytest.raises(ValueError, match="CooMatrix: shape must be two positive ints"):
        CooMatrix(d, i, i, (2, 0))
    with pytest.raises(ValueError, match="CooMatrix: order must be"):
        CooMatrix(d, i, i, (2, 2), order="X")
    with pytest.raises(ValueError, match=r"to_coo: x must be 2-dimensional \(M, N\) or 3-dimensional"):
        to_coo(numpy.ones(3))
    with pytest.raises(ValueError, match="get_order: row.shape"):
        get_order(numpy.zeros(2), numpy.zeros(3))
