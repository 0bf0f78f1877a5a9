import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import AtomicNumberPreprocessor  # noqa: E402


def test_atomic_numbers():
    atoms = AtomicNumberPreprocessor(out_size=4).get_input_features(Chem.MolFromSmiles("OCN"))
    numpy.testing.assert_array_equal(atoms, [8, 6, 7, 0])
    assert atoms.dtype == numpy.int32
