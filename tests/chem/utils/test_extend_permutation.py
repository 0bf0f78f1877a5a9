"""extend_* pad batches; permute_* renumber nodes (hand-computed cases and argument checks)."""
import numpy
import pytest
from kusari.chem.utils.extend import extend_adj, extend_arrays_to_shape, extend_node
from kusari.chem.utils.permutation import permute_adj, permute_node


def test_extend_node_and_adj():
    node = numpy.array([[1, 2], [3, 4]], numpy.int32)
    numpy.testing.assert_array_equal(extend_node(node, 3, value=-1), [[1, 2, -1], [3, 4, -1]])
    adj = numpy.ones((1, 2, 2), numpy.float32)
    out = extend_adj(adj, 3)
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out[0], [[1, 1, 0], [1, 1, 0], [0, 0, 0]])
    with pytest.raises(ValueError, match="out_size=1"):
        extend_node(node, 1)


def test_extend_ragged_list():
    arrays = [numpy.ones(2, numpy.float32), numpy.ones(3, numpy.float32)]
    numpy.testing.assert_array_equal(extend_arrays_to_shape(arrays, (2, 4)), [[1, 1, 0, 0], [1, 1, 1, 0]])


def test_permutations():
    p = numpy.array([1, 2, 0])
    node = numpy.array([[10, 20, 30]])
    numpy.testing.assert_array_equal(permute_node(node, p), [[20, 30, 10]])
    adj = numpy.arange(9).reshape(1, 3, 3)
    out = permute_adj(adj, p)
    for i in range(3):
        for j in range(3):
            assert out[0, i, j] == adj[0, p[i], p[j]]
    # renumbering nodes and edges together keeps the graph: the edge (i, j) follows its nodes
    numpy.testing.assert_array_equal(permute_adj(permute_adj(adj, p), numpy.argsort(p)), adj)


def test_permutation_checks():
    with pytest.raises(ValueError, match="permutation_index has 2"):
        permute_node(numpy.zeros((1, 3)), [0, 1])
    with pytest.raises(ValueError, match=r"adj.shape\[-1\] = 3"):
        permute_adj(numpy.zeros((1, 3, 3)), [0, 1])
    with pytest.raises(TypeError, match="axis"):
        permute_adj(numpy.zeros((1, 3, 3)), [0, 1, 2], axis=1)
    with pytest.raises(ValueError, match="2 entries"):
        permute_adj(numpy.zeros((1, 3, 3)), [0, 1, 2], axis=[0, 1, 2])
