import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import MolFeatureExtractionError, NFPPreprocessor  # noqa: E402


def test_features_of_ethanol_padded():
    atoms, adj = NFPPreprocessor(out_size=4).get_input_features(Chem.MolFromSmiles("CCO"))
    assert atoms.dtype == numpy.int32 and adj.dtype == numpy.float32
    numpy.testing.assert_array_equal(atoms, [6, 6, 8, 0])
    expected = numpy.zeros((4, 4))
    expected[:3, :3] = [[1, 1, 0], [1, 1, 1], [0, 1, 1]]
    numpy.testing.assert_array_equal(adj, expected)


def test_too_many_atoms_is_an_extraction_error():
    with pytest.raises(MolFeatureExtractionError):
        NFPPreprocessor(max_atoms=2).get_input_features(Chem.MolFromSmiles("CCO"))


def test_max_atoms_must_fit_out_size():
    with pytest.raises(ValueError, match="max_atoms=5.*out_size=4"):
        NFPPreprocessor(max_atoms=5, out_size=4)
