import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset.preprocessors import wle_atom_array_update as update  # noqa: E402

# two sets: [ethanol C-C-O], [methanol C-O, ethane C-C]; adjacency with self loops
ATOMS = [[numpy.array([6, 6, 8])], [numpy.array([6, 8]), numpy.array([6, 6])]]
ADJS = [[numpy.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]])], [numpy.ones((2, 2)), numpy.ones((2, 2))]]


def test_list_all_expanded_labels():
    expanded, freq = update.list_all_expanded_labels(ATOMS, ADJS)
    assert expanded == [[["6-6", "6-6.8", "8-6"]], [["6-8", "8-6"], ["6-6", "6-6"]]]
    assert list(freq.items()) == [("6-6", 3), ("6-6.8", 1), ("8-6", 2), ("6-8", 1)]


def test_relational_adjacency_is_summed_over_axis_1():
    adj = numpy.zeros((2, 3, 2))   # (N, R, N): the bond is in relation 2
    adj[0, 2, 1] = adj[1, 2, 0] = 1
    expanded, _ = update.list_all_expanded_labels([[numpy.array([6, 7])]], [[adj]], False)
    assert expanded == [[["7", "6"]]]


def test_shrink_expanded_labels():
    expanded, freq = update.list_all_expanded_labels(ATOMS, ADJS)
    shrunk, new_freq = update.shrink_expanded_labels(expanded, freq, cutoff=1)
    assert shrunk == [[["6-6", "6", "8-6"]], [["6", "8-6"], ["6-6", "6-6"]]]
    assert list(new_freq.items()) == [("6-6", 3), ("6", 2), ("8-6", 2)]


def test_update_atom_arrays():
    arrays, freq = update.update_atom_arrays(ATOMS, ADJS, cutoff=0)
    assert list(freq) == ["6-6", "6-6.8", "8-6", "6-8"]
    numpy.testing.assert_array_equal(arrays[0], [[0, 1, 2]])
    numpy.testing.assert_array_equal(arrays[1], [[3, 2], [0, 0]])
    assert arrays[1].dtype == numpy.int32
