import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import MolFeatureExtractionError, WeaveNetPreprocessor  # noqa: E402
from kusari.chem.dataset.preprocessors.weavenet_preprocessor import construct_pair_feature  # noqa: E402


def test_pair_features_of_ethanol():
    feature = construct_pair_feature(Chem.MolFromSmiles("CCO"), num_max_atoms=4)
    assert feature.shape == (16, 7) and feature.dtype == numpy.float32
    # row i * 3 + j: distance bits (2), bond one-hot (single, double, triple, aromatic), same ring
    expected = numpy.zeros((16, 7), numpy.float32)
    distance_bits = {0: [0, 0], 1: [1, 0], 2: [1, 1]}
    for i in range(3):
        for j in range(3):
            expected[i * 3 + j, :2] = distance_bits[abs(i - j)]
            if abs(i - j) == 1:
                expected[i * 3 + j, 2] = 1
    numpy.testing.assert_array_equal(feature, expected)


def test_ring_column():
    feature = construct_pair_feature(Chem.MolFromSmiles("C1CC1C"), num_max_atoms=4)
    same_ring = feature[:, 6].reshape(4, 4)
    numpy.testing.assert_array_equal(same_ring[:3, :3], numpy.ones((3, 3)))
    assert not same_ring[3].any() and not same_ring[:, 3].any()


def test_atomic_numbers_padded_to_max_atoms():
    pp = WeaveNetPreprocessor(max_atoms=5, add_Hs=False)
    atoms, pairs = pp.get_input_features(Chem.MolFromSmiles("CCO"))
    numpy.testing.assert_array_equal(atoms, [6, 6, 8, 0, 0])
    assert atoms.dtype == numpy.int32 and pairs.shape == (25, 7)


def test_fixed_atom_features():
    pp = WeaveNetPreprocessor(max_atoms=12, use_fixed_atom_feature=True)
    _, mol = pp.prepare_smiles_and_mol(Chem.MolFromSmiles("CO"))   # with hydrogens: 6 atoms
    atoms, _ = pp.get_input_features(mol)
    # atom type 10, formal and partial charge, ring sizes 6, hybridization 3, donor/acceptor 2,
    # aromaticity, hydrogen count
    assert atoms.shape == (12, 25) and atoms.dtype == numpy.float32
    carbon, oxygen = atoms[0], atoms[1]
    assert carbon[1] == 1 and oxygen[3] == 1          # one-hot C and O in ['H', 'C', 'N', 'O', ...]
    assert carbon[20] == 1 and oxygen[20] == 1          # sp3
    assert oxygen[21] == 1 and oxygen[22] == 1          # the hydroxyl donates and accepts
    assert carbon[24] == 3 and oxygen[24] == 1          # bonded hydrogens
    assert oxygen[11] < 0 and oxygen[11] < carbon[11]   # Gasteiger: oxygen is the more negative
    assert not atoms[6:].any()


def test_unknown_atoms():
    mol = Chem.MolFromSmiles("C[Si]")
    pp = WeaveNetPreprocessor(max_atoms=4, add_Hs=False, use_fixed_atom_feature=True)
    with pytest.raises(MolFeatureExtractionError, match="Si"):
        pp.get_input_features(mol)
    pp = WeaveNetPreprocessor(max_atoms=4, add_Hs=False, use_fixed_atom_feature=True,
                              include_unknown_atom=True)
    atoms, _ = pp.get_input_features(mol)
    assert atoms[1, 10] == 1


def test_max_atoms():
    with pytest.raises(ValueError, match="max_atoms"):
        WeaveNetPreprocessor(max_atoms=0)
    with pytest.raises(MolFeatureExtractionError):
        WeaveNetPreprocessor(max_atoms=2, add_Hs=False).get_input_features(Chem.MolFromSmiles("CCO"))
