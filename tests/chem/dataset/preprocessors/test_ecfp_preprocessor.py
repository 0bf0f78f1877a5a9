import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from rdkit import DataStructs, RDLogger  # noqa: E402
from rdkit.Chem import rdMolDescriptors  # noqa: E402

from kusari.chem.dataset.preprocessors import ECFPPreprocessor  # noqa: E402


def test_fingerprint_shape_and_radius():
    mol = Chem.MolFromSmiles("CCO")
    fp = ECFPPreprocessor().get_input_features(mol)
    assert fp.shape == (2048,) and fp.dtype == numpy.float32
    assert set(numpy.unique(fp)) <= {0.0, 1.0}
    # radius 0: one bit per distinct atom environment (CH3, CH2, OH)
    assert ECFPPreprocessor(radius=0).get_input_features(mol).sum() == 3
    assert fp.sum() > 3


def test_matches_rdkit_morgan_bit_vector():
    # the function Chainer Chemistry called, deprecated in current RDKit (it logs a warning)
    mol = Chem.MolFromSmiles("c1ccccc1CC(=O)N")
    RDLogger.DisableLog("rdApp.*")
    try:
        reference = rdMolDescriptors.GetMorganFingerprintAsBitVect(mol, 3)
    finally:
        RDLogger.EnableLog("rdApp.*")
    expected = numpy.zeros(2048)
    DataStructs.ConvertToNumpyArray(reference, expected)
    numpy.testing.assert_array_equal(ECFPPreprocessor(radius=3).get_input_features(mol), expected)
