import numpy
import pytest

from kusari.chem.dataset.converters import concat_mols, converter_method_dict


def test_ragged_integer_arrays_are_padded_with_minus_one():
    result = concat_mols([numpy.array([1, 2]), numpy.array([4, 5, 6])], device=-1)
    numpy.testing.assert_array_equal(result, [[1, 2, -1], [4, 5, 6]])


def test_ragged_float_arrays_are_zero_padded():
    result = concat_mols([numpy.array([1., 2.], numpy.float32), numpy.array([4., 5., 6.], numpy.float32)])
    numpy.testing.assert_array_equal(result, [[1, 2, 0], [4, 5, 6]])


def test_chainer_chemistry_padding_is_an_option():
    result = concat_mols([numpy.array([1, 2]), numpy.array([4, 5, 6])], padding=0)
    numpy.testing.assert_array_equal(result, [[1, 2, 0], [4, 5, 6]])
    with pytest.raises(ValueError, match="concat_mols: padding must be 'mark'"):
        concat_mols([numpy.array([1])], padding="zero")


def test_molecule_tuples_are_padded_per_position():
    atoms0, adj0 = numpy.array([6, 8], numpy.int32), numpy.ones((2, 2), numpy.float32)
    atoms1, adj1 = numpy.array([6, 6, 7], numpy.int32), 2 * numpy.ones((3, 3), numpy.float32)
    atoms, adjs, labels = concat_mols([(atoms0, adj0, numpy.float32(0.5)),
                                       (atoms1, adj1, numpy.float32(1.5))])
    numpy.testing.assert_array_equal(atoms, [[6, 8, -1], [6, 6, 7]])
    assert atoms.dtype == numpy.int32 and adjs.dtype == numpy.float32
    numpy.testing.assert_array_equal(adjs[0], [[1, 1, 0], [1, 1, 0], [0, 0, 0]])
    numpy.testing.assert_array_equal(adjs[1], 2 * numpy.ones((3, 3)))
    numpy.testing.assert_array_equal(labels, [0.5, 1.5])


def test_padding_value_and_none():
    result = concat_mols([numpy.array([1]), numpy.array([4, 5])], padding=-1)
    numpy.testing.assert_array_equal(result, [[1, -1], [4, 5]])
    with pytest.raises(ValueError, match="different shapes"):
        concat_mols([numpy.array([1]), numpy.array([4, 5])], padding=None)


def test_converter_method_dict():
    assert converter_method_dict["ggnn"] is concat_mols
    assert converter_method_dict["megnet"].__name__ == "megnet_converter"
    assert converter_method_dict["cgcnn"].__name__ == "cgcnn_converter"
