import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import GNNFiLMPreprocessor  # noqa: E402


def test_self_connection_channel_covers_real_atoms_only():
    atoms, adjs = GNNFiLMPreprocessor(out_size=5).get_input_features(Chem.MolFromSmiles("CCO"))
    assert adjs.shape == (5, 5, 5) and adjs.dtype == numpy.float32
    numpy.testing.assert_array_equal(adjs[4], numpy.diag([1, 1, 1, 0, 0]))
    assert adjs[0].sum() == 4 and adjs[1:4].sum() == 0
