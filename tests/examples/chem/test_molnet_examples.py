"""examples/chem: train_molnet.py trains on MoleculeNet offline (../shared/data/moleculenet) and keeps the
predictor of its best validation epoch; predict_molnet.py loads it and writes the test metrics."""
import importlib
import importlib.util
import json
import math
import os
import subprocess
import sys

import pytest

pytest.importorskip("rdkit")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EXAMPLES = os.path.join(ROOT, "examples", "chem")
# a small network, for the runs that need no particular learning curve
NET = ["--unit-num", "4", "--conv-layers", "1"]


@pytest.fixture
def env(tmp_path, shared_data_folder, monkeypatch):
    """Offline MoleculeNet from the real datasets' copy into a fresh dataset cache; also for in-process loads."""
    mirror = shared_data_folder("moleculenet")
    values = {"KUSARI_DOWNLOAD_MIRROR": mirror, "KUSARI_DATASET_ROOT": str(tmp_path / "datasets"),
              "MPLBACKEND": "Agg", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    return dict(os.environ)


@pytest.fixture
def scripts(monkeypatch):
    """The example scripts' modules, imported in-process (for their argument checks and helpers)."""
    monkeypatch.syspath_prepend(EXAMPLES)
    return {name: importlib.import_module(name) for name in ("_molnet", "train_molnet", "predict_molnet")}


def _run(script, env, cwd, *args):
    proc = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


def _plots_drawn(run, names):
    if importlib.util.find_spec("matplotlib") is None:
        return
    for name in names:
        with open(os.path.join(run, name), "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n", name


def _load_best(scripts, run, dataset, method):
    """The run's best model as predict_molnet.py loads it, and the run's (train, valid, test)."""
    molnet = scripts["_molnet"]
    model, saved = scripts["predict_molnet"].load_best_model(run, dataset, method, "", molnet.get_device("-1"))
    return model, molnet.load_parts(dataset, method, "", saved["num_data"])


def test_regression_keeps_the_best_epoch_and_predicts(tmp_path, env, scripts):
    # the default network on all of ESOL, seed 1: its validation RMSE rises in epoch 2 (1.678 -> 1.691), so the
    # best epoch is not the last one
    stdout = _run("train_molnet.py", env, tmp_path, "--dataset", "delaney", "--method", "ggnn",
                  "--epoch", "2", "--seed", "1")
    run = tmp_path / "result" / "delaney_ggnn_all"
    with open(run / "log") as f:
        log = json.load(f)
    assert [e["epoch"] for e in log] == [1, 2]
    best = min(e["validation/main/RMSE"] for e in log)
    assert log[-1]["validation/main/RMSE"] > best, "the test needs a run whose last epoch is not its best"
    assert "validation/main/RMSE" in stdout and "\r" not in stdout
    _plots_drawn(run, ["loss.png", "RMSE.png"])

    # the saved predictor is the epoch of the lowest validation RMSE, scaler included
    from kusari.chem.dataset.converters import concat_mols
    from kusari.iterators import SerialIterator
    from kusari.training.extensions import Evaluator
    model, (_, valid, _) = _load_best(scripts, str(run), "delaney", "ggnn")
    result = Evaluator(SerialIterator(valid, 32, repeat=False, shuffle=False), model,
                       converter=concat_mols)()
    assert result["main/RMSE"] == pytest.approx(best, rel=1e-5)

    stdout = _run("predict_molnet.py", env, tmp_path, "--dataset", "delaney", "--method", "ggnn")
    with open(run / "eval_result.json") as f:
        metrics = json.load(f)
    assert sorted(metrics) == ["main/RMSE", "main/loss"]
    assert all(math.isfinite(v) and v > 0 for v in metrics.values())
    assert "Evaluation result:" in stdout


def test_classification_reports_roc_auc(tmp_path, env, scripts):
    stdout = _run("train_molnet.py", env, tmp_path, "--dataset", "bbbp", "--method", "nfp", "--epoch", "1",
                  "--num-data", "400", *NET)
    run = tmp_path / "result" / "bbbp_nfp_all"
    with open(run / "log") as f:
        (entry,) = json.load(f)
    for key in ("main/binary_accuracy", "validation/main/loss", "train/main/roc_auc", "val/main/roc_auc"):
        assert 0 <= entry[key] and (key.endswith("loss") or entry[key] <= 1), (key, entry)
    assert "val/main/roc_auc" in stdout
    _plots_drawn(run, ["loss.png", "binary_accuracy.png", "roc_auc.png"])
    with open(run / "args.json") as f:
        assert json.load(f)["dataset"] == "bbbp"

    _run("predict_molnet.py", env, tmp_path, "--dataset", "bbbp", "--method", "nfp")
    with open(run / "rocauc_result.json") as f:
        roc_auc = json.load(f)["test/main/roc_auc"]
    with open(run / "eval_result.json") as f:
        assert sorted(json.load(f)) == ["main/binary_accuracy", "main/loss"]

    # the reported ROC-AUC is scikit-learn's on the loaded predictor's test scores (-1: no label)
    from kusari.chem.dataset.converters import concat_mols
    from sklearn.metrics import roc_auc_score
    model, (_, _, test) = _load_best(scripts, str(run), "bbbp", "nfp")
    scores = model.predict([example[:-1] for example in test], converter=concat_mols, postprocess_fn=None)
    labels = test.get_datasets()[-1]
    kept = labels.ravel() != -1
    assert roc_auc == pytest.approx(roc_auc_score(labels.ravel()[kept], scores.ravel()[kept]), rel=1e-6)


@pytest.mark.parametrize("argv, message", [
    (["--method", "no_such_net"], "invalid choice: 'no_such_net'"),
    (["--dataset", "no_such_set"], "invalid choice: 'no_such_set'"),
    (["--dataset", "chembl"], "invalid choice: 'chembl'"),  # mixed task types: not trainable here
    (["--dataset", "delaney", "--label", "logP"], "--label 'logP' is not a task of --dataset delaney"),
    (["--epoch", "0"], "--epoch must be >= 1, got 0"),
    (["--num-data", "0"], "--num-data must be -1 or >= 1, got 0"),
])
def test_train_rejects_bad_arguments(scripts, capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        scripts["train_molnet"].parse_args(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_predict_without_a_training_run_names_the_missing_file(tmp_path, scripts):
    with pytest.raises(FileNotFoundError, match=r"delaney_ggnn_all.args\.json not found.*train_molnet\.py"):
        scripts["predict_molnet"].main(["--dataset", "delaney", "--method", "ggnn",
                                        "--in-dir", str(tmp_path)])
