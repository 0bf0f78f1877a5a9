import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset.preprocessors import wle_util  # noqa: E402


def test_to_index_ragged_and_uniform():
    ragged = wle_util.to_index([["a", "b"], ["b", "c", "a"]], ["a", "b", "c"])
    assert ragged.dtype == object and ragged.shape == (2,)
    numpy.testing.assert_array_equal(ragged[1], [1, 2, 0])
    assert ragged[1].dtype == numpy.int32
    uniform = wle_util.to_index([["a", "b"], ["c", "a"]], ["a", "b", "c"])
    assert uniform.dtype == numpy.int32
    numpy.testing.assert_array_equal(uniform, [[0, 1], [2, 0]])


def test_to_index_unknown_label():
    with pytest.raises(ValueError, match="to_index: molecule 0 has the label 'z'"):
        wle_util.to_index([["z"]], ["a"])


def test_compress_relation_axis():
    adj = numpy.zeros((3, 2, 3), dtype=numpy.float32)
    adj[0, 0, 1] = adj[0, 1, 2] = 1
    numpy.testing.assert_array_equal(wle_util.compress_relation_axis(adj)[0], [0, 1, 1])
    with pytest.raises(ValueError, match=r"compress_relation_axis: .*\(3,\)"):
        wle_util.compress_relation_axis(numpy.zeros(3))


def test_neighbor_representation():
    # ethanol with self loops: C(6)-C(6)-O(8)
    atoms = numpy.array([6, 6, 8], dtype=numpy.int32)
    adj = numpy.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]])
    neighbors = adj.nonzero()
    assert wle_util.get_neighbor_representation(1, atoms, neighbors, True) == "6-6.8"
    assert wle_util.get_neighbor_representation(2, atoms, neighbors, True) == "8-6"
    assert wle_util.get_neighbor_representation(1, atoms, neighbors, False) == "6.8"
    # an isolated atom has an empty neighbourhood
    isolated = numpy.eye(1).nonzero()
    assert wle_util.get_neighbor_representation(0, numpy.array([11]), isolated, True) == "11-"


def test_focus_node_label():
    assert wle_util.get_focus_node_label("16-6.6") == "16"
    with pytest.raises(ValueError, match="get_focus_node_label"):
        wle_util.get_focus_node_label("6.6")
