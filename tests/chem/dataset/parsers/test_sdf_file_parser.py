import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.parsers import SDFFileParser  # noqa: E402
from kusari.chem.dataset.preprocessors import NFPPreprocessor  # noqa: E402


@pytest.fixture
def sdf_path(tmp_path):
    path = tmp_path / "mols.sdf"
    writer = Chem.SDWriter(str(path))
    for smiles, y in [("OCC", "1.5"), ("CCCCCC", "2.5"), ("C", "3.5")]:
        mol = Chem.MolFromSmiles(smiles)
        mol.SetProp("y", y)
        writer.write(mol)
    writer.close()
    return path


def test_labels_from_fields_and_skipped_records(sdf_path):
    parser = SDFFileParser(NFPPreprocessor(max_atoms=4), labels=["y"],
                           postprocess_label=lambda t: numpy.asarray(t, numpy.float32))
    result = parser.parse(str(sdf_path), return_smiles=True, return_is_successful=True)
    numpy.testing.assert_array_equal(result["is_successful"], [True, False, True])
    assert list(result["smiles"]) == ["CCO", "C"]
    atoms, adjs, labels = result["dataset"].get_datasets()
    numpy.testing.assert_array_equal(labels, [[1.5], [3.5]])
    numpy.testing.assert_array_equal(atoms[0], [6, 6, 8])
    assert parser.extract_total_num(str(sdf_path)) == 3


def test_target_index(sdf_path):
    result = SDFFileParser(NFPPreprocessor()).parse(str(sdf_path), target_index=[2])
    atoms, _ = result["dataset"].get_datasets()
    numpy.testing.assert_array_equal(atoms, [[6]])


def test_a_missing_file_is_named(tmp_path):
    parser = SDFFileParser(NFPPreprocessor())
    with pytest.raises(FileNotFoundError, match=r"^SDFFileParser.parse: no such SDF file: .*missing.sdf"):
        parser.parse(str(tmp_path / "missing.sdf"))
    with pytest.raises(FileNotFoundError, match=r"^SDFFileParser.extract_total_num: no such SDF file"):
        parser.extract_total_num(str(tmp_path / "missing.sdf"))


def test_a_truncated_file_skips_its_cut_record_and_names_the_file(sdf_path, caplog):
    data = sdf_path.read_bytes()
    sdf_path.write_bytes(data[:len(data) - 40])   # inside the last record
    with caplog.at_level("WARNING"):
        result = SDFFileParser(NFPPreprocessor()).parse(str(sdf_path), return_is_successful=True)
    numpy.testing.assert_array_equal(result["is_successful"], [True, True, False])
    assert f"SDFFileParser.parse of {sdf_path}: skipped 1 of 3 molecules" in caplog.text
    sdf_path.write_text("not a molecule\n")
    with pytest.raises(ValueError, match=rf"^SDFFileParser.parse of {sdf_path}: none of the \d+ molecules"):
        SDFFileParser(NFPPreprocessor()).parse(str(sdf_path))
