import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import GGNNPreprocessor, MolFeatureExtractionError  # noqa: E402


def test_bond_type_channels_of_ethanol():
    atoms, adjs = GGNNPreprocessor().get_input_features(Chem.MolFromSmiles("CCO"))
    numpy.testing.assert_array_equal(atoms, [6, 6, 8])
    assert adjs.shape == (4, 3, 3) and adjs.dtype == numpy.float32
    numpy.testing.assert_array_equal(adjs[0], [[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    assert not adjs[1:].any()


def test_kekulized_benzene_has_no_aromatic_channel():
    pp = GGNNPreprocessor(kekulize=True, out_size=8)
    _, mol = pp.prepare_smiles_and_mol(Chem.MolFromSmiles("c1ccccc1"))
    atoms, adjs = pp.get_input_features(mol)
    assert atoms.shape == (8,) and adjs.shape == (4, 8, 8)
    assert adjs[0].sum() == 6 and adjs[1].sum() == 6 and adjs[3].sum() == 0


def test_max_atoms():
    with pytest.raises(MolFeatureExtractionError):
        GGNNPreprocessor(max_atoms=5).get_input_features(Chem.MolFromSmiles("c1ccccc1"))
