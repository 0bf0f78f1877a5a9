"""ChempropPreprocessor: chemprop 2.3.1's default atom (72) and bond (14) features, checked by hand."""
import numpy
import pytest

pytest.importorskip("rdkit")
from rdkit import Chem  # noqa: E402

from kusari.chem.dataset.preprocessors import (ChempropPreprocessor, MolFeatureExtractionError,  # noqa: E402
                                               atom_features, bond_features)
from kusari.chem.dataset.preprocessors.common import MolFeatureExtractionError as _Error  # noqa: E402

# group offsets: atomic number 0 (37 + other), degree 38, charge 45, chiral tag 51, Hs 56,
# hybridization 62, aromatic 70, mass 71
def _atom(bits, aromatic, mass):
    x = numpy.zeros(72, numpy.float32)
    x[list(bits)] = 1
    x[70], x[71] = aromatic, 0.01 * mass
    return x


def _bond(bits):
    x = numpy.zeros(14, numpy.float32)
    x[list(bits)] = 1
    return x


def _mol(smiles):
    return ChempropPreprocessor().prepare_smiles_and_mol(Chem.MolFromSmiles(smiles))[1]


def test_ethanol_atoms_and_bonds():
    mol = _mol("CCO")
    # CH3: C (index 5), degree 4 (incl. H), charge 0 (5th choice), no chirality, 3 H, SP3 (5th)
    numpy.testing.assert_allclose(atom_features(mol.GetAtomWithIdx(0)),
                                  _atom([5, 42, 49, 51, 59, 66], 0, 12.011), rtol=1e-6)
    # OH: O (index 7), degree 2, 1 H, SP3
    numpy.testing.assert_allclose(atom_features(mol.GetAtomWithIdx(2)),
                                  _atom([7, 40, 49, 51, 57, 66], 0, 15.999), rtol=1e-6)
    # single, not conjugated, not in a ring, STEREONONE
    numpy.testing.assert_array_equal(bond_features(mol.GetBondWithIdx(0)), _bond([1, 7]))


def test_benzene_is_aromatic_conjugated_and_in_a_ring():
    mol = _mol("c1ccccc1")
    numpy.testing.assert_allclose(atom_features(mol.GetAtomWithIdx(0)),
                                  _atom([5, 41, 49, 51, 57, 64], 1, 12.011), rtol=1e-6)
    numpy.testing.assert_array_equal(bond_features(mol.GetBondWithIdx(0)), _bond([4, 5, 6, 7]))


def test_charges_chirality_stereo_and_unknown_values():
    mol = _mol("C[N+](C)(C)C.[Xe]")
    # N+: degree 4, charge +1 (3rd choice: 45 + 2), 0 H, SP3
    numpy.testing.assert_allclose(atom_features(mol.GetAtomWithIdx(1)),
                                  _atom([6, 42, 47, 51, 56, 66], 0, 14.007), rtol=1e-6)
    xe = [a for a in mol.GetAtoms() if a.GetSymbol() == "Xe"][0]
    # xenon has no bit of its own: the element group's "other" bit (37); degree 0 (38)
    x = atom_features(xe)
    assert x[37] == 1 and x[:37].sum() == 0 and x[38] == 1
    chiral = _mol("C[C@H](N)O")
    tag = int(chiral.GetAtomWithIdx(1).GetChiralTag())
    assert tag in (1, 2) and atom_features(chiral.GetAtomWithIdx(1))[51 + tag] == 1
    trans = _mol("C/C=C/C")
    double = [b for b in trans.GetBonds() if b.GetBondType() == Chem.BondType.DOUBLE][0]
    stereo = int(double.GetStereo())   # STEREOE (3) from the SMILES' slashes
    assert stereo == 3
    numpy.testing.assert_array_equal(bond_features(double), _bond([2, 7 + stereo]))


def test_preprocessor_arrays_padding_and_size_limit():
    pre = ChempropPreprocessor(out_size=4)
    mol = _mol("CCO")
    atoms, bonds = pre.get_input_features(mol)
    assert atoms.shape == (4, 72) and bonds.shape == (14, 4, 4)
    assert atoms.dtype == bonds.dtype == numpy.float32
    numpy.testing.assert_array_equal(atoms[3], 0)
    numpy.testing.assert_array_equal(bonds[:, 0, 1], bonds[:, 1, 0])
    numpy.testing.assert_array_equal(bonds[:, 0, 1], _bond([1, 7]))
    numpy.testing.assert_array_equal(bonds[:, 0, 2], 0)
    with pytest.raises(MolFeatureExtractionError, match="more than out_size=2"):
        ChempropPreprocessor(out_size=2).get_input_features(mol)
    with pytest.raises(_Error, match="num_max_atoms=2"):
        ChempropPreprocessor(max_atoms=2).get_input_features(mol)


def test_ggnn_takes_the_features_as_float_atoms_and_14_edge_types():
    import kusari
    from kusari.chem.dataset.converters import concat_mols
    from kusari.chem.models import GGNN
    pre = ChempropPreprocessor()
    examples = [pre.get_input_features(_mol(s)) for s in ("CCO", "C" * 30)]
    atoms, bonds = concat_mols(examples)
    is_real_node = numpy.any(atoms != 0, axis=2).astype(numpy.float32)
    numpy.testing.assert_array_equal(is_real_node.sum(axis=1), [3, 30])
    numpy.random.seed(0)
    model = GGNN(out_dim=4, hidden_channels=72, n_edge_types=14)
    with kusari.using_config("train", False):
        batched = model(atoms, bonds, is_real_node).array[0]
        alone = model(*concat_mols(examples[:1])).array[0]
    numpy.testing.assert_allclose(batched, alone, rtol=1e-5, atol=1e-6)


def test_stereo_is_kept():
    smiles, mol = ChempropPreprocessor().prepare_smiles_and_mol(Chem.MolFromSmiles("C[C@H](N)O"))
    assert "@" in smiles
