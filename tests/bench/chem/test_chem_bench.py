"""bench.chem: the split it hands out, the scoring checks, the summary and goal verdicts, and a smoke run of kusari's side."""
import json
import os
import sys

import pandas
import pytest

pytest.importorskip("rdkit")
pytest.importorskip("sklearn")

from bench.chem import __main__ as cli  # noqa: E402  (after the skips: kusari.chem needs RDKit)
from bench.chem import esol  # noqa: E402


@pytest.fixture
def molnet(shared_data_folder, tmp_path, monkeypatch):
    """MoleculeNet served offline from the real datasets' copy into a fresh dataset cache."""
    mirror = shared_data_folder("moleculenet")
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", mirror)
    monkeypatch.setenv("KUSARI_DATASET_ROOT", str(tmp_path / "datasets"))
    return mirror


def test_the_split_is_one_fixed_80_10_10_partition_in_chemprops_format(tmp_path):
    path = tmp_path / "splits.json"
    split = cli.write_split(1128, str(path))
    assert [len(split[k]) for k in ("train", "val", "test")] == [902, 112, 114]
    assert sorted(split["train"] + split["val"] + split["test"]) == list(range(1128))
    with open(path) as f:
        assert json.load(f) == [split]                       # chemprop's --splits-file: a list of splits
    assert esol.read_split(str(path)) == (split["train"], split["val"], split["test"])
    assert cli.write_split(1128, str(tmp_path / "again.json")) == split


FRAME = pandas.DataFrame({esol.SMILES_COLUMN: ["C", "CC", "CCC", "CCCC"],
                          esol.LABEL_COLUMN: [0.0, 1.0, 2.0, 3.0]})


def test_score_computes_the_rmse_against_the_files_labels_and_refuses_misaligned_runs():
    scored = cli.score({"predictions": [3.0, 0.0], "smiles": ["CCCC", "C"]}, FRAME, [3, 0])
    assert scored["rmse"] == pytest.approx(0.0)
    scored = cli.score({"predictions": [2.0, 1.0], "labels": [3.0, 0.0]}, FRAME, [3, 0])
    assert scored["rmse"] == pytest.approx(1.0)               # sqrt((1 + 1) / 2)
    assert "SMILES" in cli.score({"predictions": [3.0, 0.0], "smiles": ["C", "CCCC"]}, FRAME, [3, 0])["error"]
    assert "labels" in cli.score({"predictions": [3.0, 0.0], "labels": [0.0, 3.0]}, FRAME, [3, 0])["error"]
    assert "1 test predictions for 2" in cli.score({"predictions": [3.0]}, FRAME, [3, 0])["error"]
    assert cli.score({"error": "exit 1"}, FRAME, [3, 0]) == {"error": "exit 1"}


def _run(rmse, cpu_s, wall_s, best_epoch=10, **extra):
    return {"rmse": rmse, "cpu_s": cpu_s, "wall_s": wall_s, "best_epoch": best_epoch, **extra}


def test_summary_takes_means_of_rmse_medians_of_times_and_of_per_seed_ratios():
    runs = [{"kusari": _run(0.60, 40.0, 50.0, epoch_cpu_s=[0.5, 0.5]), "chemprop": _run(0.62, 100.0, 120.0)},
            {"kusari": _run(0.70, 60.0, 70.0, epoch_cpu_s=[0.25]), "chemprop": {"error": "exit 1: boom"}},
            {"kusari": _run(0.65, 30.0, 40.0, epoch_cpu_s=[0.5]), "chemprop": _run(0.645, 50.0, 80.0)}]
    featurized = [{"kusari": {"featurize_cpu_s": 2.0}, "chemprop": {"featurize_cpu_s": 4.0}}] * 3
    summary = cli.summarize(runs, featurized, ["kusari", "chemprop"])
    assert summary["kusari"]["rmse"] == pytest.approx(0.65) and summary["chemprop"]["rmse"] == pytest.approx(0.6325)
    assert summary["kusari"]["cpu_s"] == 40.0 and summary["chemprop"]["cpu_s"] == 75.0
    assert summary["kusari/chemprop"]["cpu_s"] == pytest.approx((0.4 + 0.6) / 2)   # the failed seed drops out
    assert summary["kusari/chemprop"]["featurize_cpu_s"] == pytest.approx(0.5)
    assert summary["kusari"]["epoch_cpu_s"] == pytest.approx(0.5)                  # median of 0.5, 0.5, 0.25, 0.5
    assert summary["kusari/chemprop"]["rmse"] == pytest.approx(0.0175)
    assert summary["chemprop"]["errors"] == ["exit 1: boom"]
    rmse_row, cpu_row = cli.table(summary, ["kusari", "chemprop"]).splitlines()[2:4]
    assert rmse_row.endswith("| +0.017 | ≤ chemprop + 0.02 | yes |")   # within the slack
    assert cpu_row.endswith("| 0.50× | ≤ 0.5× | yes |")


def test_goals_fail_when_kusari_is_worse_or_slower():
    runs = [{"kusari": _run(0.70, 60.0, 60.0), "chemprop": _run(0.65, 100.0, 100.0)}]
    rmse_row, cpu_row = cli.table(cli.summarize(runs, [{}], ["kusari", "chemprop"]),
                                  ["kusari", "chemprop"]).splitlines()[2:4]
    assert rmse_row.endswith("| no |") and cpu_row.endswith("| 0.60× | ≤ 0.5× | no |")


def test_a_third_framework_gets_its_own_comparison_and_no_goal():
    runs = [{"kusari": _run(0.70, 30.0, 30.0, epoch_cpu_s=[0.5]), "chemprop": _run(0.65, 100.0, 100.0),
             "chainer-chemistry": _run(0.71, 60.0, 60.0, epoch_cpu_s=[1.0])}]
    frameworks = ["kusari", "chemprop", "chainer-chemistry"]
    summary = cli.summarize(runs, [{}], frameworks)
    assert summary["kusari/chainer-chemistry"]["cpu_s"] == pytest.approx(0.5)
    assert summary["kusari/chainer-chemistry"]["epoch_cpu_s"] == pytest.approx(0.5)
    assert summary["kusari/chemprop"]["epoch_cpu_s"] is None                        # chemprop reports no epochs
    head, _, rmse_row, cpu_row = cli.table(summary, frameworks).splitlines()[:4]
    assert head.endswith("| kusari vs chemprop | kusari vs Chainer Chemistry | goal (vs chemprop) | met |")
    assert rmse_row.endswith("| +0.050 | -0.010 | ≤ chemprop + 0.02 | no |")
    assert cpu_row.endswith("| 0.30× | 0.50× | ≤ 0.5× | yes |")
    assert "| kusari vs" not in cli.table(cli.summarize(runs, [{}], ["kusari"]), ["kusari"])


def test_kusari_module_names_map_to_chainers_and_chainer_chemistrys():
    from bench.chem.chainer_as_kusari import peer_name
    assert peer_name("kusari") == "chainer" and peer_name("kusari.functions") == "chainer.functions"
    assert peer_name("kusari.chem") == "chainer_chemistry"
    assert peer_name("kusari.chem.dataset.parsers") == "chainer_chemistry.dataset.parsers"
    assert peer_name("kusari.chemistry") == "chainer.chemistry"                     # not kusari.chem
    with pytest.raises(ValueError, match="'numpy' is not a kusari module"):
        peer_name("numpy")


def test_run_one_reports_a_failing_worker_as_an_error():
    result = cli.run_one(sys.executable, "no_such_job", "kusari", [], timeout_s=60)
    assert result["error"].startswith("exit 2")              # argparse refuses the job


def test_cli_refuses_bad_arguments(capsys):
    for argv, message in ((["--seeds", "0"], "--seeds must be >= 1"), (["--frameworks", "torch"], "unknown ['torch']"),
                          (["--quick", "--epochs", "5"], "give one of --quick and --epochs")):
        with pytest.raises(SystemExit):
            cli.main(argv)
        assert message in capsys.readouterr().err


@pytest.mark.slow   # about 17 CPU s: three processes, ESOL for 3 epochs and all of Lipophilicity
def test_the_smoke_mode_runs_kusaris_side_end_to_end(molnet, tmp_path, capsys):
    out = tmp_path / "chem.md"
    assert cli.main(["--quick", "--frameworks", "kusari", "--seeds", "1", "--output", str(out)]) == 0
    text = out.read_text()
    assert "for 3 epochs" in text and "| kusari | GGNNPreprocessor" in text and "Failed runs" not in text
    seed_row = text.split("Per seed:")[1].strip().splitlines()[2]
    rmse, cpu_s, wall_s = (float(cell) for cell in seed_row.strip("| ").split(" | ")[1:])
    # ESOL's labels have a standard deviation of 2.1 log mol/L: a working pipeline stays well below
    # twice that after 3 epochs; a broken one (labels left scaled, NaN) does not
    assert 0 < rmse < 4.2 and 0 < cpu_s and 0 < wall_s
    featurize_row = next(line for line in text.splitlines() if line.startswith("| featurize Lipophilicity"))
    assert float(featurize_row.strip("| ").split(" | ")[1]) > 0
    assert "4200 molecules" in capsys.readouterr().err


def test_cv_folds_partition_the_rows_the_same_way_every_time():
    from bench.chem import cv
    rows = list(range(100, 1114))
    folds = cv.folds(rows, 5)
    assert sorted(sum(folds, [])) == rows and [len(f) for f in folds] == [203, 203, 203, 203, 202]
    assert cv.folds(list(reversed(rows)), 5) == folds


def test_cv_refuses_bad_arguments(capsys):
    from bench.chem import cv
    for argv in (["sigmoid"], ["--folds", "1"], ["--epochs", "3"]):
        with pytest.raises(SystemExit):
            cv.main(argv)
    assert "settings must be of" in capsys.readouterr().err


def test_cv_scores_held_out_rows_and_never_the_test_rows(molnet, monkeypatch):
    from bench.chem import cv
    seen = []

    def fake_fit(self, train, valid, epochs, seed):
        seen.append((len(train), len(valid), seed, self.activation))
        return None, 1, [{"valid_rmse": 1.0 + seed + e} for e in range(epochs)]
    import reproductions.chem._molnet as molnet_module
    monkeypatch.setattr(molnet_module.MolNetRecipe, "fit", fake_fit)
    train, valid, test = cv.benchmark_split()
    result = cv.run_fold(cv.SETTINGS["identity"], (train, valid, test), 7, 12)
    assert seen == [(len(train), len(valid), 7, None)]
    assert result == {"best": 8.0, "best_epoch": 1, "last10": 8.0 + 6.5}


def test_kusaris_dmpnn_row_predicts_the_splits_test_rows_in_order(molnet, tmp_path):
    # the prepared D-MPNN row (issue 31, item 4), two epochs on a small split; scored as the bench scores
    data = os.path.join(molnet, "delaney-processed.csv")
    splits = tmp_path / "splits.json"
    split = {"train": list(range(60)), "val": list(range(60, 80)), "test": [95, 81, 90]}
    splits.write_text(json.dumps([split]))
    result = esol.train_kusari_dmpnn(data, str(splits), 0, 2, str(tmp_path))
    scored = cli.score(result, pandas.read_csv(data), split["test"])
    assert "error" not in scored and 0 < scored["rmse"] < 10 and result["best_epoch"] in (1, 2)
    assert "kusari-dmpnn" not in cli.FRAMEWORKS and cli.LABEL["kusari-dmpnn"] == "kusari.chem D-MPNN"
