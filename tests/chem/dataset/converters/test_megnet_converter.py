import numpy
import pytest

from kusari.chem.dataset.converters.megnet_converter import megnet_converter


def test_two_graphs_are_joined():
    # graph 0: 2 atoms, 1 pair (0-1); graph 1: 3 atoms, 2 pairs (0-2, 2-1)
    atoms0 = numpy.arange(4, dtype=numpy.float32).reshape(2, 2)
    atoms1 = 10 + numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    pairs0 = numpy.full((1, 3), 1, numpy.float32)
    pairs1 = numpy.full((2, 3), 2, numpy.float32)
    batch = [(atoms0, pairs0, numpy.array([0.5], numpy.float32),
              numpy.array([[0], [1]], numpy.int32), numpy.array([1.0], numpy.float32)),
             (atoms1, pairs1, numpy.array([0.25], numpy.float32),
              numpy.array([[0, 2], [2, 1]], numpy.int32), numpy.array([2.0], numpy.float32))]
    atom, pair, glob, atom_idx, pair_idx, start, end, target = megnet_converter(batch, -1)
    numpy.testing.assert_array_equal(atom, numpy.concatenate([atoms0, atoms1]))
    numpy.testing.assert_array_equal(pair, [[1] * 3, [2] * 3, [2] * 3])
    numpy.testing.assert_array_equal(glob, [[0.5], [0.25]])
    numpy.testing.assert_array_equal(atom_idx, [0, 0, 1, 1, 1])
    numpy.testing.assert_array_equal(pair_idx, [0, 1, 1])
    numpy.testing.assert_array_equal(start, [0, 2, 4])   # graph 1's atoms start at row 2
    numpy.testing.assert_array_equal(end, [1, 4, 3])
    numpy.testing.assert_array_equal(target, [[1.0], [2.0]])
    assert atom.dtype == numpy.float32 and start.dtype == numpy.int32


def test_empty_batch():
    with pytest.raises(ValueError, match="megnet_converter: the batch is empty"):
        megnet_converter([])
