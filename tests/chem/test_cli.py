"""python -m kusari.chem train | predict | fingerprint: ESOL end to end, and the errors on bad input."""
import csv
import json
import os
import subprocess
import sys

import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem import cli  # noqa: E402

ESOL_TARGET = "measured log solubility in mols per litre"


def _run(*args, cwd):
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", "kusari.chem", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def _write(path, text):
    path.write_text(text)
    return str(path)


def test_trains_and_predicts_esol_end_to_end(tmp_path, shared_data_folder):
    esol = os.path.join(shared_data_folder("moleculenet"), "delaney-processed.csv")
    proc = _run("train", "--data-path", esol, "--task-type", "regression", "--smiles-columns", "smiles",
                "--target-columns", ESOL_TARGET, "--save-dir", "out", "--epochs", "2",
                "--hidden-size", "32", "--ensemble-size", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "1128 molecules" in proc.stdout and "random split 902/112/114" in proc.stdout
    table = [line for line in proc.stdout.splitlines() if line.startswith("| ")]
    assert table[0] == "| part | molecules | RMSE | MAE |"
    assert [row.split(" | ")[0] for row in table[1:]] == ["| train", "| validation", "| test"]
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text())
    assert 0 < metrics["test"]["RMSE"] < 3   # ESOL's labels spread over about 13 log units
    assert len(metrics["best_epochs"]) == 2 and all(e in (1, 2) for e in metrics["best_epochs"])
    saved = json.loads((tmp_path / "out" / "args.json").read_text())
    assert saved["model"] == "dmpnn" and saved["ensemble_size"] == 2

    new = _write(tmp_path / "new.csv", "smiles\nCCO\nC1CC\nOC1C(O)C(O)C(O)C(O)C1O\n\nCCCCCCO\n")
    proc = _run("predict", "--test-path", new, "--model-path", "out", "--preds-path", "preds.csv", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "skipped 2 of 5 rows" in proc.stderr
    assert "row 2, column 'smiles': 'C1CC' does not parse" in proc.stderr
    assert "row 4, column 'smiles': the SMILES is empty" in proc.stderr
    with open(tmp_path / "preds.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 5
    assert [r[ESOL_TARGET] == "" for r in rows] == [False, True, False, True, False]
    spread = [float(r[f"{ESOL_TARGET}_ensemble_std"]) for r in rows if r[ESOL_TARGET]]
    assert all(s > 0 for s in spread)   # two models with different seeds disagree a little
    # ethanol's prediction is the same predicted alone
    alone = _write(tmp_path / "alone.csv", "smiles\nCCO\n")
    assert _run("predict", "--test-path", alone, "--model-path", "out", "--preds-path", "alone_preds.csv",
                cwd=tmp_path).returncode == 0
    with open(tmp_path / "alone_preds.csv") as f:
        assert float(next(csv.DictReader(f))[ESOL_TARGET]) == pytest.approx(float(rows[0][ESOL_TARGET]), rel=1e-5)

    proc = _run("fingerprint", "--test-path", new, "--model-path", "out", "--output", "fp.npz", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    with numpy.load(tmp_path / "fp.npz") as z:
        assert z["fingerprints"].shape == (5, 32)
        assert numpy.isnan(z["fingerprints"][[1, 3]]).all() and not numpy.isnan(z["fingerprints"][[0, 2, 4]]).any()
        numpy.testing.assert_array_equal(z["rows"], [0, 2, 4])


def _error(capsys, *argv):
    assert cli.main(list(argv)) == 1
    return capsys.readouterr().err


def test_bad_csv_files_are_named(tmp_path, capsys):
    good = _write(tmp_path / "good.csv", "smiles,y,name\nCCO,1.0,a\nCCC,2.0,b\nCCN,x,c\n")
    out = str(tmp_path / "out")
    err = _error(capsys, "train", "--data-path", good, "--target-columns", "z", "--save-dir", out)
    assert "good.csv has no column 'z'" in err and "['smiles', 'y', 'name']" in err
    err = _error(capsys, "train", "--data-path", good, "--target-columns", "y", "--save-dir", out)
    assert "good.csv row 3, column 'y': 'x' is not a number (1 such rows)" in err
    err = _error(capsys, "train", "--data-path", good, "--target-columns", "name", "--save-dir", out)
    assert "row 1, column 'name': 'a' is not a number (3 such rows)" in err
    empty = _write(tmp_path / "empty.csv", "")
    assert "empty.csv is empty" in _error(capsys, "train", "--data-path", empty, "--target-columns", "y",
                                          "--save-dir", out)
    header = _write(tmp_path / "header.csv", "smiles,y\n")
    assert "header.csv has a header but no rows" in _error(
        capsys, "train", "--data-path", header, "--target-columns", "y", "--save-dir", out)
    missing = _write(tmp_path / "missing.csv", "smiles,y\nCCO,1\nCCC,\n")
    assert "missing.csv row 2, column 'y': the target is missing" in _error(
        capsys, "train", "--data-path", missing, "--target-columns", "y", "--save-dir", out)
    assert "args.json not found" in _error(capsys, "predict", "--test-path", good, "--model-path",
                                           str(tmp_path), "--preds-path", str(tmp_path / "p.csv"))


def test_molecules_over_the_size_limit_are_reported(tmp_path, capsys):
    data = _write(tmp_path / "d.csv", "smiles,y\nCCO,1\nCCCCCCCCCC,2\nCC,3\nCCC,4\nC1CC,5\nCCN,6\nCCCl,7\n")
    code = cli.main(["train", "--data-path", data, "--target-columns", "y", "--save-dir",
                     str(tmp_path / "out"), "--epochs", "1", "--hidden-size", "8", "--max-atoms", "5",
                     "--split-sizes", "0.34", "0.33", "0.33"])
    err = capsys.readouterr().err
    assert code == 0
    assert "d.csv: skipped 2 of 7 rows" in err
    assert "d.csv row 2, column 'smiles': 'CCCCCCCCCC' has 10 atoms, more than --max-atoms 5" in err
    assert "d.csv row 5, column 'smiles': 'C1CC' does not parse" in err
    with pytest.raises(SystemExit):
        cli.main(["train", "--data-path", data, "--target-columns", "y", "--save-dir", "x",
                  "--model", "schnet"])


def test_chemprops_learning_rate_schedule():
    # 2 warm-up steps from 1e-4 to 1e-3, then 4 steps down to 1e-4 by a constant factor 10 ** -0.25
    lrs = [cli.noam_lr(step, 2, 4, 1e-4, 1e-3, 1e-4) for step in range(8)]
    numpy.testing.assert_allclose(lrs, [1e-4, 5.5e-4, 1e-3, 10 ** -3.25, 10 ** -3.5, 10 ** -3.75, 1e-4, 1e-4])


def test_splits_file_and_test_predictions(tmp_path, capsys):
    data = _write(tmp_path / "d.csv", "smiles,y\nCCO,1\nC1CC,2\nCCC,3\nCCN,4\nCCCl,5\nCCCO,6\nc1ccccc1,7\n")
    splits = tmp_path / "splits.json"
    splits.write_text(json.dumps([{"train": [0, 2, 3], "val": [4], "test": [5, 6]}]))
    out = tmp_path / "out"
    assert cli.main(["train", "--data-path", data, "--target-columns", "y", "--save-dir", str(out),
                     "--epochs", "1", "--hidden-size", "8", "--splits-file", str(splits)]) == 0
    assert "split 3/1/2" in capsys.readouterr().out
    with open(out / "test_predictions.csv") as f:
        rows = list(csv.DictReader(f))
    assert [(r["row"], r["smiles"]) for r in rows] == [("5", "CCCO"), ("6", "c1ccccc1")]
    splits.write_text(json.dumps([{"train": [0, 1], "val": [4], "test": [5]}]))   # row 1 does not parse
    assert "names rows [1] that are not usable rows" in _error(
        capsys, "train", "--data-path", data, "--target-columns", "y", "--save-dir", str(out),
        "--splits-file", str(splits))


def test_classification_with_missing_labels(tmp_path, capsys):
    # two tasks, empty cells are missing labels; predictions are probabilities
    rows = ["CCO,1,0", "CCN,0,", "CCC,1,1", "CCCl,0,0", "c1ccccc1,1,1", "CCOC,0,1", "CC(=O)O,1,",
            "CCCCO,0,0", "CN,1,1", "CCS,0,0"]
    data = _write(tmp_path / "c.csv", "smiles,a,b\n" + "\n".join(rows) + "\n")
    splits = tmp_path / "splits.json"
    splits.write_text(json.dumps([{"train": [0, 1, 2, 3, 4, 5], "val": [6, 7], "test": [8, 9]}]))
    out = tmp_path / "out"
    assert cli.main(["train", "--data-path", data, "--task-type", "classification", "--target-columns", "a", "b",
                     "--save-dir", str(out), "--epochs", "2", "--hidden-size", "8", "--splits-file", str(splits),
                     "--model", "attentivefp"]) == 0
    assert "| part | molecules | ROC-AUC |" in capsys.readouterr().out
    preds = tmp_path / "p.csv"
    assert cli.main(["predict", "--test-path", data, "--model-path", str(out), "--preds-path", str(preds)]) == 0
    with open(preds) as f:
        probabilities = [[float(r["a"]), float(r["b"])] for r in csv.DictReader(f)]
    assert len(probabilities) == 10 and all(0 < p < 1 for row in probabilities for p in row)
    bad = _write(tmp_path / "bad.csv", "smiles,a\nCCO,1\nCCN,2\n")
    assert "bad.csv row 2, column 'a': label 2 is not 0 or 1" in _error(
        capsys, "train", "--data-path", bad, "--task-type", "classification", "--target-columns", "a",
        "--save-dir", str(out))
