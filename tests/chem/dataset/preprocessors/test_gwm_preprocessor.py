import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset import preprocessors as P  # noqa: E402


@pytest.mark.parametrize("cls, base, size", [
    (P.NFPGWMPreprocessor, P.NFPPreprocessor, 238),
    (P.GGNNGWMPreprocessor, P.GGNNPreprocessor, 244),
    (P.GINGWMPreprocessor, P.GINPreprocessor, 238),
    (P.RSGCNGWMPreprocessor, P.RSGCNPreprocessor, 238),
])
def test_base_features_plus_supernode(cls, base, size):
    mol = Chem.MolFromSmiles("CC=O")
    atoms, adj, super_x = cls().get_input_features(mol)
    base_atoms, base_adj = base().get_input_features(mol)
    numpy.testing.assert_array_equal(atoms, base_atoms)
    numpy.testing.assert_array_equal(adj, base_adj)
    assert super_x.shape == (size,) and super_x.dtype == numpy.float32
    numpy.testing.assert_array_equal(
        super_x, P.construct_supernode_feature(mol, base_atoms, base_adj))
    assert super_x[0] == 3
