import logging

import numpy
import pytest

pytest.importorskip("rdkit")
pandas = pytest.importorskip("pandas")

from kusari.chem.dataset.parsers import DataFrameParser  # noqa: E402
from kusari.chem.dataset.preprocessors import NFPPreprocessor  # noqa: E402
from kusari.chem.datasets.numpy_tuple_dataset import NumpyTupleDataset  # noqa: E402


@pytest.fixture
def frame():
    # row 1 does not parse; row 3 has more atoms than max_atoms=5
    return pandas.DataFrame({"smiles": ["OCC", "not a smiles", "C", "CCCCCCCC"],
                             "y": [0.5, 1.0, 2.0, 3.0], "z": [1, 0, 1, 0]})


def test_skips_unparsable_and_too_large_molecules(frame, caplog):
    parser = DataFrameParser(NFPPreprocessor(max_atoms=5), labels="y")
    with caplog.at_level(logging.WARNING):
        result = parser.parse(frame, return_smiles=True, return_is_successful=True)
    assert set(result) == {"dataset", "smiles", "is_successful"}
    numpy.testing.assert_array_equal(result["is_successful"], [True, False, True, False])
    assert list(result["smiles"]) == ["CCO", "C"]
    dataset = result["dataset"]
    assert isinstance(dataset, NumpyTupleDataset) and len(dataset) == 2
    atoms, adjs, labels = dataset.get_datasets()
    assert atoms.dtype == object   # 3 atoms and 1 atom: ragged
    numpy.testing.assert_array_equal(atoms[0], [6, 6, 8])
    numpy.testing.assert_array_equal(labels, [[0.5], [2.0]])
    assert "skipped 2 of 4" in caplog.text and "rows [1, 3]" in caplog.text


def test_defaults_return_none(frame):
    result = DataFrameParser(NFPPreprocessor(max_atoms=5)).parse(frame)
    assert result["smiles"] is None and result["is_successful"] is None
    assert len(result["dataset"].get_datasets()) == 2   # no labels column


def test_target_index_and_label_postprocessing(frame):
    parser = DataFrameParser(NFPPreprocessor(), labels=["y", "z"],
                             postprocess_label=lambda t: numpy.asarray(t, numpy.float32))
    result = parser.parse(frame, target_index=[2, 0], return_is_successful=True)
    labels = result["dataset"].get_datasets()[-1]
    assert labels.dtype == numpy.float32
    numpy.testing.assert_array_equal(labels, [[2.0, 1.0], [0.5, 1.0]])
    numpy.testing.assert_array_equal(result["is_successful"], [True, True])


def test_postprocess_fn(frame):
    parser = DataFrameParser(NFPPreprocessor(), postprocess_fn=lambda atoms, adjs: (atoms,))
    assert len(parser.parse(frame.iloc[[0, 2]])["dataset"].get_datasets()) == 1


def test_missing_label_column_names_it_and_the_columns(frame):
    with pytest.raises(ValueError, match=r"'w'.*\['smiles', 'y', 'z'\]"):
        DataFrameParser(NFPPreprocessor(), labels="w").parse(frame)
    with pytest.raises(ValueError, match="SMILES column 'SMILES'"):
        DataFrameParser(NFPPreprocessor(), smiles_col="SMILES").parse(frame)


def test_nothing_parsed_is_an_error():
    with pytest.raises(ValueError, match="none of the 1 molecules"):
        DataFrameParser(NFPPreprocessor()).parse(pandas.DataFrame({"smiles": ["xyz"]}))


def test_preprocessor_must_be_a_mol_preprocessor(frame):
    with pytest.raises(TypeError, match="MolPreprocessor"):
        DataFrameParser(object()).parse(frame)


def test_extract_total_num(frame):
    assert DataFrameParser(NFPPreprocessor()).extract_total_num(frame) == 4
