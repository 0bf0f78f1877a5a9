from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")
pytest.importorskip("pandas")

from kusari.chem.dataset.parsers import CSVFileParser  # noqa: E402
from kusari.chem.dataset.preprocessors import NFPPreprocessor  # noqa: E402

MOLECULENET = Path(__file__).resolve().parents[4].parent / "shared" / "data" / "moleculenet"


def test_parses_a_csv_file(tmp_path):
    path = tmp_path / "mols.csv"
    path.write_text("name,SMILES,logS\na,CCO,0.5\nb,C(,1.0\nc,c1ccccc1,-2.0\n")
    parser = CSVFileParser(NFPPreprocessor(), labels="logS", smiles_col="SMILES")
    result = parser.parse(str(path), return_is_successful=True)
    numpy.testing.assert_array_equal(result["is_successful"], [True, False, True])
    numpy.testing.assert_array_equal(result["dataset"].get_datasets()[-1], [[0.5], [-2.0]])
    assert parser.extract_total_num(str(path)) == 3


def test_missing_label_column_names_the_file(tmp_path):
    path = tmp_path / "mols.csv"
    path.write_text("smiles,y\nC,1\n")
    with pytest.raises(ValueError, match=r"'logS' is not in .*mols\.csv.*\['smiles', 'y'\]"):
        CSVFileParser(NFPPreprocessor(), labels="logS").parse(str(path))


@pytest.mark.skipif(not (MOLECULENET / "BBBP.csv").exists(), reason="shared MoleculeNet data absent")
def test_bbbp_skips_its_eleven_unparsable_smiles():
    result = CSVFileParser(NFPPreprocessor(), labels="BBBP").parse(
        str(MOLECULENET / "BBBP.csv"), return_is_successful=True)
    ok = result["is_successful"]
    assert len(ok) == 2050 and (~ok).sum() == 11
    assert len(result["dataset"]) == 2039
