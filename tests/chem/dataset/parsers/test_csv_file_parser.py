import os

import numpy
import pytest

pytest.importorskip("rdkit")
pytest.importorskip("pandas")

from kusari.chem.dataset.parsers import CSVFileParser  # noqa: E402
from kusari.chem.dataset.preprocessors import NFPPreprocessor  # noqa: E402


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


def test_bbbp_skips_its_eleven_unparsable_smiles(shared_data_folder):
    result = CSVFileParser(NFPPreprocessor(), labels="BBBP").parse(
        os.path.join(shared_data_folder("moleculenet"), "BBBP.csv"), return_is_successful=True)
    ok = result["is_successful"]
    assert len(ok) == 2050 and (~ok).sum() == 11
    assert len(result["dataset"]) == 2039


@pytest.mark.parametrize("text, message", [
    ("smiles,y\nC,1\nCC,2,3\n", r"Expected 2 fields in line 3, saw 3"),
    ("", r"No columns to parse"),
])
def test_a_file_pandas_cannot_parse_is_named(tmp_path, text, message):
    path = tmp_path / "mols.csv"
    path.write_text(text)
    parser = CSVFileParser(NFPPreprocessor(), labels="y")
    for call in (parser.parse, parser.extract_total_num):
        with pytest.raises(ValueError, match=rf"^CSVFileParser\.\w+: {path} is not a readable CSV file "
                                             rf"\(.*{message}"):
            call(str(path))


def test_a_truncated_gzipped_file_is_named(tmp_path):
    import gzip
    path = tmp_path / "mols.csv.gz"
    data = gzip.compress(("smiles,y\n" + "CCO,1\n" * 200).encode())
    path.write_bytes(data[:len(data) // 2])
    with pytest.raises(ValueError, match=rf"^CSVFileParser.parse: {path} is not a readable CSV file"):
        CSVFileParser(NFPPreprocessor(), labels="y").parse(str(path))


def test_skipped_rows_are_reported_with_the_file(tmp_path, caplog):
    path = tmp_path / "mols.csv"
    path.write_text("smiles,y\nCCO,1\n,2\n")   # an empty SMILES cell is NaN
    with caplog.at_level("WARNING"):
        CSVFileParser(NFPPreprocessor(), labels="y").parse(str(path))
    assert f"CSVFileParser.parse of {path}: row 1 failed" in caplog.text
    path.write_text("smiles,y\nC(,1\n")
    with pytest.raises(ValueError, match=rf"^CSVFileParser.parse of {path}: none of the 1 molecules"):
        CSVFileParser(NFPPreprocessor(), labels="y").parse(str(path))
