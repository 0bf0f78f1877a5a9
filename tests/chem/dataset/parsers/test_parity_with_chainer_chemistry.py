"""The parsers against what Chainer Chemistry 0.7.1 returned on tests/chem/fixtures/molecules.csv (parsers.npz)."""
import json
from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")
pytest.importorskip("pandas")

import pandas
from kusari.chem.dataset.parsers import CSVFileParser, SmilesParser
from kusari.chem.dataset.preprocessors import GGNNPreprocessor, NFPPreprocessor

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MOLECULES = FIXTURES / "molecules.csv"

# the calls the fixture recorded; the tests below make exactly these
RECORDED_CALLS = {
    "nfp": "CSVFileParser(NFPPreprocessor(), labels=['label_a', 'label_b'], smiles_col='smiles')"
           ".parse('molecules.csv', return_smiles=True, return_is_successful=True)",
    "ggnn": "SmilesParser(GGNNPreprocessor()).parse(<the smiles column of molecules.csv>, "
            "return_smiles=True, return_is_successful=True)",
}


@pytest.fixture(scope="module")
def expected():
    for path in (FIXTURES / "parsers.npz", MOLECULES):
        if not path.exists():
            pytest.skip(f"Chainer Chemistry fixture {path.name} is missing")
    with numpy.load(FIXTURES / "parsers.npz") as npz:
        return {key: npz[key] for key in npz.files}


def _assert_dataset_matches(dataset, expected, prefix):
    layout = json.loads(str(expected[prefix + "layout"]))
    columns = dataset.get_datasets()
    assert [{"dtype": str(c.dtype), "shape": list(c.shape)} for c in columns] == layout
    n_examples = layout[0]["shape"][0]
    assert len(dataset) == n_examples
    for i in range(n_examples):
        example = dataset[i]
        assert len(example) == len(layout)
        for k, value in enumerate(example):
            # strict: shapes and dtypes must match too, e.g. int32 atoms and float32 adjacency
            numpy.testing.assert_array_equal(numpy.asarray(value), expected[f"{prefix}{i}/{k}"],
                                             err_msg=f"{prefix}{i}/{k}", strict=True)


def test_the_recorded_calls_are_the_ones_made_here(expected):
    assert json.loads(str(expected["calls"])) == RECORDED_CALLS


def test_csv_file_parser_with_nfp(expected):
    parser = CSVFileParser(NFPPreprocessor(), labels=["label_a", "label_b"], smiles_col="smiles")
    result = parser.parse(str(MOLECULES), return_smiles=True, return_is_successful=True)
    _assert_dataset_matches(result["dataset"], expected, "nfp/")
    # the labels keep pandas' float64, as upstream does not cast them
    numpy.testing.assert_array_equal(result["dataset"].get_datasets()[-1], expected["labels"],
                                     strict=True)
    assert result["smiles"].dtype == object
    assert result["smiles"].tolist() == expected["smiles"].tolist()
    numpy.testing.assert_array_equal(result["is_successful"], expected["is_successful"], strict=True)


def test_smiles_parser_with_ggnn(expected):
    smiles = pandas.read_csv(MOLECULES)["smiles"].tolist()
    result = SmilesParser(GGNNPreprocessor()).parse(smiles, return_smiles=True,
                                                    return_is_successful=True)
    _assert_dataset_matches(result["dataset"], expected, "ggnn/")
    assert result["smiles"].dtype == object
    assert result["smiles"].tolist() == expected["ggnn/smiles"].tolist()
    numpy.testing.assert_array_equal(result["is_successful"], expected["ggnn/is_successful"],
                                     strict=True)
