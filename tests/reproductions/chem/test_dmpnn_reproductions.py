"""The D-MPNN MoleculeNet reproductions: declarations, chemprop's schedule, the grid chosen on validation, a tiny run."""
import dataclasses
import importlib
import json
import os

import numpy
import pytest

pytest.importorskip("rdkit")
pytest.importorskip("sklearn")

from reproductions import catalog, runner  # noqa: E402  (after the skips: kusari.chem needs RDKit)
from reproductions.chem import _dmpnn, _molnet  # noqa: E402
from reproductions.spec import Tier  # noqa: E402

DATASETS = {"esol": "delaney", "freesolv": "SAMPL", "lipo": "lipo", "tox21": "tox21", "bbbp": "bbbp"}
MODULES = sorted(f"{ds}_dmpnn" for ds in DATASETS)
# the target each D-MPNN row shares with the Chainer Chemistry rows of its dataset
SAME_TARGET_AS = {"esol": "esol_ggnn", "freesolv": "freesolv_ggnn", "lipo": "lipo_ggnn", "tox21": "tox21_nfp",
                  "bbbp": "bbbp_nfp"}


def _module(name):
    return importlib.import_module(f"reproductions.chem.{name}")


@pytest.mark.parametrize("name", MODULES)
def test_declarations(name):
    module = _module(name)
    repro, recipe = module.REPRODUCTION, module.RECIPE
    dataset = name.split("_")[0]
    assert repro.name == f"chem/{name}" and repro.budget_unit == "epochs"
    assert isinstance(recipe, _dmpnn.DMPNNRecipe) and recipe.dataset == DATASETS[dataset]
    # chemprop 2.3.1's defaults, with the alternatives (if any) only in the grid
    assert (recipe.n_unit, recipe.conv_layers, recipe.dropout, recipe.batch_size) == (300, 3, 0.0, 64)
    assert (recipe.init_lr, recipe.lr, recipe.final_lr, recipe.warmup_epochs) == (1e-4, 1e-3, 1e-4, 2)
    assert repro.recipe == recipe.text and "hidden 300, depth 3" in repro.recipe
    assert repro.target == _module(SAME_TARGET_AS[dataset]).REPRODUCTION.target
    full, quick = repro.tier("full"), repro.tier("quick")
    assert full.bound is None and full.options == {} and full.budget == 50
    assert quick.budget <= 10 and quick.options["num_data"] <= 400 and "pipeline check" in quick.note
    assert quick.bound == _module(SAME_TARGET_AS[dataset]).REPRODUCTION.bound("quick")
    json.dumps(repro.config)
    doc = module.__doc__
    assert "Target:" in doc and "Tolerance" in doc and doc.count("pipeline check") == 1
    assert "validation" in doc and ("Yang et al." in doc) == (dataset in ("esol", "freesolv", "lipo"))


def test_catalog_lists_the_dmpnn_reproductions():
    available, unavailable = catalog.discover()
    assert {f"chem/{m}" for m in MODULES} <= set(available)


def test_recipe_checks_its_arguments():
    with pytest.raises(ValueError, match="DMPNNRecipe: method must be 'dmpnn', got 'ggnn'"):
        _dmpnn.DMPNNRecipe("delaney", method="ggnn")
    with pytest.raises(ValueError, match="DMPNNRecipe: dataset must be one of"):
        _dmpnn.DMPNNRecipe("qm9")
    with pytest.raises(ValueError, match=r"DMPNNRecipe: grid\[1\] changes \['epochs'\]"):
        _dmpnn.DMPNNRecipe("delaney", grid=({"dropout": 0.1}, {"epochs": 5}))
    with pytest.raises(ValueError, match=r"DMPNNRecipe: grid\[0\] must be a non-empty dict"):
        _dmpnn.DMPNNRecipe("delaney", grid=({},))
    with pytest.raises(ValueError, match=r"DMPNNRecipe: dropout must be in \[0, 1\), got 1.5"):
        _dmpnn.DMPNNRecipe("delaney", dropout=1.5)


def test_step_size_follows_chemprops_schedule():
    recipe = _dmpnn.DMPNNRecipe("delaney")
    per_epoch, epochs = 10, 50
    steps = [recipe.step_size(u, per_epoch, epochs) for u in range(per_epoch * epochs)]
    # linear warm-up over 2 epochs from 1e-4 to 1e-3, then exponential decay to 1e-4 at the end
    assert steps[0] == pytest.approx(1e-4) and steps[10] == pytest.approx(1e-4 + 10 * 9e-4 / 20)
    assert steps[20] == pytest.approx(1e-3)
    assert steps[20 + 240] == pytest.approx(1e-3 * 0.1 ** 0.5)
    assert numpy.all(numpy.diff(steps[:21]) > 0) and numpy.all(numpy.diff(steps[20:]) < 0)
    assert steps[-1] == pytest.approx(1e-4 * 10 ** (1 / 480))
    # a run shorter than the warm-up never leaves it
    assert recipe.step_size(5, 10, 1) == pytest.approx(1e-4 + 5 * 9e-4 / 10)


def test_candidates_are_the_defaults_then_the_grid():
    recipe = _dmpnn.DMPNNRecipe("delaney", grid=_dmpnn.SMALL_GRID)
    candidates = recipe.candidates()
    assert [(c.conv_layers, c.dropout) for c in candidates] == [(3, 0.0), (5, 0.0), (3, 0.1), (5, 0.1)]
    assert all(c.grid == () and c.dataset == "delaney" for c in candidates)
    predictor = candidates[3].make_predictor(1)
    assert (predictor.graph_conv.n_update_layers, predictor.graph_conv.dropout_ratio) == (5, 0.1)


@pytest.fixture
def molnet(shared_data_folder, tmp_path, monkeypatch):
    """MoleculeNet served offline from the real datasets' copy into a fresh dataset cache."""
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", shared_data_folder("moleculenet"))
    monkeypatch.setenv("KUSARI_DATASET_ROOT", str(tmp_path / "datasets"))


@pytest.mark.parametrize("name", ["freesolv_dmpnn", "tox21_dmpnn"])
def test_a_tiny_run_keeps_the_candidate_of_the_best_validation_score(name, molnet, tmp_path, dirty_tree):
    repro = _module(name).REPRODUCTION
    recipe = dataclasses.replace(_module(name).RECIPE, n_unit=16, grid=({"conv_layers": 2}, {"lr": 3e-3}))
    tier = Tier(budget=3, bound=repro.bound("quick"), options={"num_data": 120})
    repro = dataclasses.replace(repro, train=recipe.train, evaluate=recipe.evaluate, tiers={"quick": tier})
    result = runner.run(repro, "quick", seeds=1, out=str(tmp_path / "out"), work=str(tmp_path / "work"))
    work, = os.listdir(tmp_path / "work")
    with open(tmp_path / "work" / work / "seed0" / _molnet.HISTORY_FILE) as f:
        history = json.load(f)
    runs = history["candidates"]
    assert [run["settings"]["conv_layers"] for run in runs] == [3, 2, 3]
    assert [run["settings"]["lr"] for run in runs] == [1e-3, 1e-3, 3e-3]
    metric = repro.target.metric
    valid = metric.replace("test_", "valid_")
    for run in runs:
        assert [r["epoch"] for r in run["epochs"]] == [1, 2, 3]
        assert run[f"best_{valid}"] == run["epochs"][run["best_epoch"] - 1][valid]
    best = [run[f"best_{valid}"] for run in runs]
    assert history["kept"] == int(numpy.argmin(best) if metric == "test_rmse" else numpy.argmax(best))
    kept = runs[history["kept"]]
    # the reported value is the kept candidate's test metric at its best validation epoch
    assert result["values"][0] == pytest.approx(kept["epochs"][kept["best_epoch"] - 1][metric], rel=1e-6)
