import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor  # noqa: E402


def test_prepare_smiles_and_mol_canonicalizes_and_drops_stereo():
    smiles, mol = MolPreprocessor().prepare_smiles_and_mol(Chem.MolFromSmiles("OC[C@@H](C)F"))
    assert smiles == Chem.MolToSmiles(Chem.MolFromSmiles("CC(F)CO"))
    assert "@" not in smiles and mol.GetNumAtoms() == 5


def test_add_Hs_and_kekulize():
    _, mol = MolPreprocessor(add_Hs=True).prepare_smiles_and_mol(Chem.MolFromSmiles("C"))
    assert mol.GetNumAtoms() == 5
    _, mol = MolPreprocessor(kekulize=True).prepare_smiles_and_mol(Chem.MolFromSmiles("c1ccccc1"))
    types = sorted(str(b.GetBondType()) for b in mol.GetBonds())
    assert types == ["DOUBLE"] * 3 + ["SINGLE"] * 3


def test_get_label_reads_properties():
    mol = Chem.MolFromSmiles("C")
    mol.SetProp("y", "1.5")
    assert MolPreprocessor().get_label(mol, ["y", "absent"]) == ["1.5", None]
    assert MolPreprocessor().get_label(mol) == []


def test_get_input_features_is_abstract():
    with pytest.raises(NotImplementedError, match="MolPreprocessor"):
        MolPreprocessor().get_input_features(Chem.MolFromSmiles("C"))
