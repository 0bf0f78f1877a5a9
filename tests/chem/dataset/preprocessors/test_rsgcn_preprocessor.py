import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import RSGCNPreprocessor  # noqa: E402


def test_symmetric_normalization_of_ethanol():
    atoms, adj = RSGCNPreprocessor(out_size=4).get_input_features(Chem.MolFromSmiles("CCO"))
    assert adj.dtype == numpy.float32
    numpy.testing.assert_array_equal(atoms, [6, 6, 8, 0])
    # degrees with self loops: 2, 3, 2
    s = 1 / numpy.sqrt(6)
    expected = numpy.zeros((4, 4))
    expected[:3, :3] = [[1 / 2, s, 0], [s, 1 / 3, s], [0, s, 1 / 2]]
    numpy.testing.assert_allclose(adj, expected, rtol=1e-6)
