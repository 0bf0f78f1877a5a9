import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import GINPreprocessor  # noqa: E402


def test_atoms_and_adjacency_with_self_loops():
    pp = GINPreprocessor(max_atoms=3)
    assert not pp.kekulize
    atoms, adj = pp.get_input_features(Chem.MolFromSmiles("CO"))
    numpy.testing.assert_array_equal(atoms, [6, 8])
    numpy.testing.assert_array_equal(adj, numpy.ones((2, 2)))
