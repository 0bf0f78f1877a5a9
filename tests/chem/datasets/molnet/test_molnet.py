"""get_molnet_dataset and friends on the real MoleculeNet files of ../shared/data/moleculenet, served offline."""
import gzip
import hashlib
import logging
import os
import pathlib

import numpy
import pytest

pytest.importorskip("rdkit")
pandas = pytest.importorskip("pandas")

from kusari.chem.dataset.preprocessors import GGNNPreprocessor
from kusari.chem.dataset.splitters import RandomSplitter
from kusari.chem.datasets.molnet import (
    get_molnet_dataframe,
    get_molnet_dataset,
    get_molnet_filepath,
    molnet_default_config,
)
from kusari.dataset.download import DownloadError
from rdkit import Chem

SEED = 777


@pytest.fixture
def molnet_dir(shared_data_folder):
    return shared_data_folder("moleculenet")


@pytest.fixture
def served(molnet_dir, dataset_root, http_server, monkeypatch):
    """../shared/data/moleculenet on a loopback HTTP server named by KUSARI_DOWNLOAD_MIRROR."""
    server = http_server(molnet_dir)
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", server.url)
    return server


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _labels(result):
    return [part.get_datasets()[-1] for part in result["dataset"]]


def _random_parts(n, frac_train=0.8, frac_valid=0.1):
    perm = numpy.random.RandomState(SEED).permutation(n)
    n_train, n_valid = int(n * frac_train), int(n * frac_valid)
    return perm[:n_train], perm[n_train:n_train + n_valid], perm[n_train + n_valid:]


def test_delaney_with_ggnn_and_the_random_split(served, molnet_dir):
    result = get_molnet_dataset("delaney", GGNNPreprocessor(), return_smiles=True)
    assert "/delaney-processed.csv" in served.hits
    df = pandas.read_csv(os.path.join(molnet_dir, "delaney-processed.csv"))
    assert len(df) == 1128
    train, valid, test = result["dataset"]
    assert (len(train), len(valid), len(test)) == (902, 112, 114)

    expected = _random_parts(1128)
    dataset_indices = RandomSplitter().train_valid_test_split(numpy.arange(1128), seed=SEED)
    for got, want in zip(expected, dataset_indices):
        numpy.testing.assert_array_equal(got, want)
    target = df["measured log solubility in mols per litre"].to_numpy(dtype=numpy.float32)
    for labels, smiles, index in zip(_labels(result), result["smiles"], expected):
        assert labels.dtype == numpy.float32 and labels.shape == (len(index), 1)
        numpy.testing.assert_array_equal(labels[:, 0], target[index])
        # the preprocessor's canonical form (non-isomeric) of the file's SMILES, in split order
        assert list(smiles) == [Chem.MolToSmiles(Chem.MolFromSmiles(s), isomericSmiles=False)
                                for s in df["smiles"][index]]

    atoms, adjacency, _ = test[5]
    want_atoms, want_adjacency = GGNNPreprocessor().get_input_features(
        Chem.MolFromSmiles(df["smiles"][expected[2][5]]))
    numpy.testing.assert_array_equal(atoms, want_atoms)
    numpy.testing.assert_array_equal(adjacency, want_adjacency)


@pytest.mark.parametrize("name, file_name, column, n_rows", [
    ("SAMPL", "SAMPL.csv", "expt", 642),
    ("lipo", "Lipophilicity.csv", "exp", 4200),
])
def test_regression_sets_keep_their_label_column(served, molnet_dir, name, file_name, column, n_rows):
    result = get_molnet_dataset(name, frac_train=0.7, frac_valid=0.2, frac_test=0.1)
    target = pandas.read_csv(os.path.join(molnet_dir, file_name))[column].to_numpy(dtype=numpy.float32)
    assert len(target) == n_rows
    for labels, index in zip(_labels(result), _random_parts(n_rows, 0.7, 0.2)):
        numpy.testing.assert_array_equal(labels[:, 0], target[index])


def test_tox21_has_12_tasks_and_marks_missing_labels(served):
    df = get_molnet_dataframe("tox21")
    tasks = molnet_default_config["tox21"]["tasks"]
    assert len(tasks) == 12 and len(df) == 7831
    assert df[tasks].isna().to_numpy().any()

    rows = numpy.arange(400)
    result = get_molnet_dataset("tox21", target_index=rows)
    labels = _labels(result)
    assert sum(len(part) for part in labels) == 400  # these rows all parse
    expected = df[tasks].to_numpy()[rows]
    for part, index in zip(labels, _random_parts(400)):
        assert part.dtype == numpy.int32 and part.shape == (len(index), 12)
        want = expected[index]
        # missing (NaN in the file) -> -1; measured 0/1 kept
        numpy.testing.assert_array_equal(part == -1, numpy.isnan(want))
        numpy.testing.assert_array_equal(part[~numpy.isnan(want)], want[~numpy.isnan(want)])


def test_bbbp_skips_and_reports_unparsable_smiles(served, molnet_dir, caplog):
    df = pandas.read_csv(os.path.join(molnet_dir, "BBBP.csv"))
    parsable = numpy.array([Chem.MolFromSmiles(s) is not None for s in df["smiles"]])
    assert len(df) == 2050 and (~parsable).sum() == 11
    with caplog.at_level(logging.WARNING):
        result = get_molnet_dataset("bbbp")  # default: the scaffold split
    assert "skipped 11 of 2050" in caplog.text
    labels = numpy.concatenate(_labels(result))[:, 0]
    # the local copy's label column is 'BBBP' (MoleculeNet's file calls it 'p_np')
    assert len(labels) == 2039 and labels.dtype == numpy.int32
    assert labels.sum() == df["BBBP"][parsable].sum()
    assert result["smiles"] is None


def test_a_corrupt_cached_file_is_replaced(molnet_dir, dataset_root, monkeypatch):
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", molnet_dir)
    path = get_molnet_filepath("delaney")
    original = _sha256(path)
    assert original == _sha256(os.path.join(molnet_dir, "delaney-processed.csv"))
    with open(path, "r+b") as f:
        f.write(b"garbage")
    with pytest.warns(UserWarning, match="corrupt"):
        assert get_molnet_filepath("delaney") == path
    assert _sha256(path) == original


def test_a_wrong_checksum_is_a_clear_error(molnet_dir, dataset_root, tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    data = bytearray((pathlib.Path(molnet_dir) / "SAMPL.csv").read_bytes())
    data[-2:-1] = b"7" if data[-2:-1] != b"7" else b"8"
    (mirror / "SAMPL.csv").write_bytes(bytes(data))
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", str(mirror))
    with pytest.raises(DownloadError, match=r"SAMPL\.csv(.|\n)*sha256 of the file is [0-9a-f]{64}, expected ab5895"):
        get_molnet_dataset("SAMPL")
    assert not os.path.exists(get_molnet_filepath("SAMPL", download_if_not_exist=False))


def test_unverified_files_load_and_keep_missing_labels(dataset_root, tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "clintox.csv.gz").write_bytes(gzip.compress(
        b"smiles,FDA_APPROVED,CT_TOX\nCCO,1,0\nC1=CC=CC=C1,,1\nCC(=O)O,0,\n"))
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", str(mirror))
    result = get_molnet_dataset("clintox", split=RandomSplitter(), frac_train=1.0, frac_valid=0.0,
                                frac_test=0.0)
    labels = result["dataset"][0].get_datasets()[-1]
    rows = _random_parts(3, 1.0, 0.0)[0]
    numpy.testing.assert_array_equal(labels, numpy.array([[1, 0], [-1, 1], [0, -1]])[rows])


def test_no_download_when_asked_not_to(dataset_root):
    path = get_molnet_filepath("HIV", download_if_not_exist=False)
    assert path == os.path.join(str(dataset_root), "pfnet", "chainer", "molnet", "HIV.csv")
    assert not os.path.exists(path)


def test_errors_name_the_function_and_the_argument(dataset_root):
    with pytest.raises(ValueError, match=r"get_molnet_dataset: unknown dataset_name 'esol'.*'delaney'"):
        get_molnet_dataset("esol")
    with pytest.raises(ValueError, match=r"get_molnet_filepath: filetype must be one of"):
        get_molnet_filepath("delaney", filetype="all")
    with pytest.raises(ValueError, match=r"needs pdbbind_subset, one of \['core', 'full', 'refined'\]"):
        get_molnet_filepath("pdbbind_smiles", download_if_not_exist=False)
    with pytest.raises(ValueError, match="joblib pickles"):
        get_molnet_dataset("pdbbind_grid", pdbbind_subset="core")


def test_split_must_be_a_name_or_a_splitter(molnet_dir, dataset_root, monkeypatch):
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", molnet_dir)
    with pytest.raises(TypeError, match="get_molnet_dataset: split must be None, a str or a BaseSplitter, got int"):
        get_molnet_dataset("SAMPL", split=3)
    with pytest.raises(ValueError, match="get_molnet_dataset: unknown split 'randm'"):
        get_molnet_dataset("SAMPL", split="randm")


def test_config_metrics_resolve_to_the_evaluators():
    from kusari.chem.training.extensions import PRCAUCEvaluator, ROCAUCEvaluator
    assert molnet_default_config["tox21"]["metrics"]["roc_auc"] is ROCAUCEvaluator
    assert dict(molnet_default_config["muv"]["metrics"])["prc_auc"] is PRCAUCEvaluator
    assert "metrics" not in molnet_default_config["chembl"]
    assert len(molnet_default_config["chembl"]["tasks"]) == 461
    assert len(molnet_default_config["toxcast"]["tasks"]) == 617
