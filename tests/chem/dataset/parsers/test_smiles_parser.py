import numpy
import pytest

pytest.importorskip("rdkit")
pytest.importorskip("pandas")

from kusari.chem.dataset.parsers import SmilesParser  # noqa: E402
from kusari.chem.dataset.preprocessors import GGNNPreprocessor  # noqa: E402


def test_parses_a_smiles_list():
    parser = SmilesParser(GGNNPreprocessor(out_size=4))
    result = parser.parse(["CCO", "C1CC", "C=O"], return_smiles=True, return_is_successful=True)
    atoms, adjs = result["dataset"].get_datasets()
    # padded to the same size: regular arrays
    assert atoms.shape == (2, 4) and atoms.dtype == numpy.int32
    assert adjs.shape == (2, 4, 4, 4) and adjs.dtype == numpy.float32
    numpy.testing.assert_array_equal(result["is_successful"], [True, False, True])
    assert list(result["smiles"]) == ["CCO", "C=O"]
    assert parser.extract_total_num(["C", "CC"]) == 2
