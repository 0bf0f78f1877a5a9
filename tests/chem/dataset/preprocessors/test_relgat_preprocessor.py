import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import RelGATPreprocessor  # noqa: E402


def test_features_are_ggnn_style():
    atoms, adjs = RelGATPreprocessor().get_input_features(Chem.MolFromSmiles("C=O"))
    numpy.testing.assert_array_equal(atoms, [6, 8])
    assert adjs.shape == (4, 2, 2)
    assert adjs[1, 0, 1] == adjs[1, 1, 0] == 1 and adjs.sum() == 2
