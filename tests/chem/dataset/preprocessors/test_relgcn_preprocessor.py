import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import RelGCNPreprocessor  # noqa: E402


def test_features_are_ggnn_style():
    atoms, adjs = RelGCNPreprocessor(out_size=3).get_input_features(Chem.MolFromSmiles("C#N"))
    numpy.testing.assert_array_equal(atoms, [6, 7, 0])
    assert adjs.shape == (4, 3, 3)
    assert adjs[2, 0, 1] == adjs[2, 1, 0] == 1 and adjs.sum() == 2
