import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import MolFeatureExtractionError, SchNetPreprocessor  # noqa: E402
from kusari.chem.dataset.preprocessors.schnet_preprocessor import construct_distance_matrix  # noqa: E402


def test_distances_of_ethanol():
    atoms, dist = SchNetPreprocessor(out_size=4).get_input_features(Chem.MolFromSmiles("CCO"))
    numpy.testing.assert_array_equal(atoms, [6, 6, 8, 0])
    assert dist.shape == (4, 4) and dist.dtype == numpy.float32
    numpy.testing.assert_allclose(dist, dist.T)
    numpy.testing.assert_array_equal(numpy.diag(dist), 0)
    assert 1.4 < dist[0, 1] < 1.6 and 1.3 < dist[1, 2] < 1.5   # C-C and C-O bond lengths
    assert not dist[3].any()


def test_explicit_hydrogens_are_kept():
    mol = Chem.AddHs(Chem.MolFromSmiles("C"))
    dist = construct_distance_matrix(mol, contain_Hs=True)
    assert dist.shape == (5, 5)
    assert numpy.all((dist[0, 1:] > 1.0) & (dist[0, 1:] < 1.2))   # C-H bonds


def test_out_size_too_small():
    with pytest.raises(MolFeatureExtractionError, match="out_size=2"):
        construct_distance_matrix(Chem.MolFromSmiles("CCO"), out_size=2)
