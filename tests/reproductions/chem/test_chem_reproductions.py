"""The MoleculeNet reproductions: declarations and citations, the metrics, the paper's splits, a tiny run end to end."""
import importlib
import json
import math
import os

import numpy
import pytest

pytest.importorskip("rdkit")
pytest.importorskip("sklearn")

from reproductions import catalog, runner  # noqa: E402  (after the skips: kusari.chem needs RDKit)
from reproductions.chem import _molnet  # noqa: E402
from reproductions.spec import Target, Tier  # noqa: E402

DATASETS = {"esol": "delaney", "freesolv": "SAMPL", "lipo": "lipo", "tox21": "tox21", "bbbp": "bbbp"}
MODULES = sorted(f"{ds}_{method}" for ds in DATASETS for method in ("ggnn", "mpnn", "nfp"))
# targets that are not the family's own MoleculeNet row, or were found in one source only
FLAGGED = {"esol_ggnn", "freesolv_ggnn", "freesolv_mpnn", "freesolv_nfp", "lipo_ggnn", "lipo_mpnn",
           "tox21_ggnn", "tox21_mpnn", "bbbp_ggnn", "bbbp_mpnn"}


def _module(name):
    return importlib.import_module(f"reproductions.chem.{name}")


@pytest.mark.parametrize("name", MODULES)
def test_declarations(name):
    module = _module(name)
    repro, recipe = module.REPRODUCTION, module.RECIPE
    dataset, method = name.split("_")
    assert repro.name == f"chem/{name}" and repro.budget_unit == "epochs"
    assert (recipe.dataset, recipe.method) == (DATASETS[dataset], method)
    # one recipe per method on every dataset, and the published text is the recipe's own
    assert recipe == _molnet.molnet_recipe(DATASETS[dataset], method)
    assert repro.recipe == recipe.text and f"width {recipe.n_unit}, {recipe.conv_layers} steps" in repro.recipe
    assert set(repro.tiers) == {"quick", "full"}
    regression = dataset in ("esol", "freesolv", "lipo")
    target = repro.target
    assert target.metric == ("test_rmse" if regression else "test_roc_auc") == recipe.metric
    assert target.direction == ("lower" if regression else "higher")
    assert "Chem. Sci. 9, 513 (2018)" in target.citation and "checked in" in target.citation
    assert f"{target.value:g} ± " in target.citation
    # the tolerance is two of the paper's standard deviations, as printed in the citation
    std = float(target.citation.split(f"{target.value:g} ± ")[1].split(" ")[0])
    assert target.tolerance == pytest.approx(_molnet.TOLERANCE_STDS * std)
    full, quick = repro.tier("full"), repro.tier("quick")
    assert full.bound is None and full.options == {} and full.budget >= 30
    assert quick.budget <= 10 and quick.options["num_data"] <= 400 and "pipeline check" in quick.note
    assert not target.passes(repro.bound("quick"), repro.bound("full"))  # the quick bound is looser
    json.dumps(repro.config)  # it names the work folder
    doc = module.__doc__
    assert "Target:" in doc and "Tolerance" in doc and doc.count("pipeline check") == 1
    assert ("The lead" in doc) == (name in FLAGGED)


def test_catalog_lists_the_chem_reproductions():
    available, unavailable = catalog.discover()
    assert {f"chem/{m}" for m in MODULES} <= set(available)
    assert not any(name.startswith("chem/") for name in unavailable)


def test_splits_are_the_papers():
    assert _molnet.FRACTIONS == (0.8, 0.1, 0.1)
    assert {d: _molnet.SPLITS[k] for d, k in DATASETS.items()} == {
        "esol": "random", "freesolv": "random", "lipo": "random", "tox21": "random", "bbbp": "dc_scaffold"}


def test_rmse_ignores_missing_labels():
    y = numpy.array([[1.0], [2.0], [3.0]], dtype=numpy.float32)
    t = numpy.array([[1.0], [numpy.nan], [5.0]], dtype=numpy.float32)
    assert _molnet.rmse(y, t) == pytest.approx(math.sqrt((0.0 + 4.0) / 2))
    with pytest.raises(ValueError, match=r"rmse: predictions \(3, 1\) and labels \(1, 3\)"):
        _molnet.rmse(y, t.T)


def test_mean_roc_auc_averages_tasks_with_both_classes():
    y = numpy.array([[0.1, 0.9, 0.3], [0.8, 0.2, 0.1], [0.7, 0.6, 0.2], [0.2, 0.4, 0.9]])
    t = numpy.array([[0, 1, 1], [1, 0, 1], [1, -1, 1], [-1, 0, 1]], dtype=numpy.int32)
    # task 0: positives 0.8, 0.7 above the negative 0.1 -> 1; task 1: the positive 0.9 above
    # negatives 0.2 and 0.4 -> 1, the -1 row ignored; task 2 has one class only and is left out
    assert _molnet.mean_roc_auc(y, t) == 1.0
    t[:, 1] = [0, 1, -1, 0]  # now the positive 0.2 ranks below both negatives
    assert _molnet.mean_roc_auc(y, t) == 0.5
    with pytest.raises(ValueError, match="mean_roc_auc: no task has both classes among its 4 molecules"):
        _molnet.mean_roc_auc(y, numpy.ones_like(t))


def test_recipe_checks_its_arguments():
    with pytest.raises(ValueError, match="MolNetRecipe: method must be one of"):
        _molnet.MolNetRecipe("delaney", "schnet")
    with pytest.raises(ValueError, match="MolNetRecipe: dataset must be one of"):
        _molnet.MolNetRecipe("qm9", "ggnn")
    recipe = _molnet.MolNetRecipe("delaney", "ggnn")
    target = Target(value=0.5, metric="test_rmse", direction="lower", tolerance=0.1, citation="x")
    with pytest.raises(ValueError, match=r"tier 'quick' has unknown options \['train_size'\]"):
        recipe.reproduction("chem/x", "x", target, {"quick": Tier(budget=1, options={"train_size": 5})})
    wrong = Target(value=0.8, metric="test_roc_auc", direction="higher", tolerance=0.1, citation="x")
    with pytest.raises(ValueError, match="the target's metric must be 'test_rmse'"):
        recipe.reproduction("chem/x", "x", wrong, {"quick": Tier(budget=1)})


def _features(method, smiles_list):
    """Each molecule's preprocessed features, with a label 0.0, as a dataset's examples."""
    from rdkit import Chem

    from kusari.chem.dataset.preprocessors import preprocess_method_dict
    preprocessor = preprocess_method_dict["ggnn" if method == "mpnn" else method]()
    return [preprocessor.get_input_features(Chem.MolFromSmiles(smiles)) + (numpy.zeros(1, numpy.float32),)
            for smiles in smiles_list]


def _dataset(examples, labels=None):
    """A NumpyTupleDataset of ``(atoms, adjacency, label)`` examples (ragged features as object arrays)."""
    from kusari.chem.datasets import NumpyTupleDataset
    columns = []
    for i in range(2):
        column = numpy.empty(len(examples), dtype=object)
        column[:] = [example[i] for example in examples]
        columns.append(column)
    return NumpyTupleDataset(*columns, numpy.stack([e[2] for e in examples]) if labels is None else labels)


def test_concat_molecules_marks_each_molecules_own_atoms():
    examples = _features("ggnn", ["CO", "CCCO"])
    atoms, adjs, is_real_node, labels = _molnet.concat_molecules(examples)
    expected = _molnet.concat_mols(examples, padding=0)   # Chainer Chemistry's batch
    numpy.testing.assert_array_equal(atoms, expected[0])
    numpy.testing.assert_array_equal(adjs, expected[1])
    numpy.testing.assert_array_equal(labels, expected[2])
    numpy.testing.assert_array_equal(is_real_node, [[1, 1, 0, 0], [1, 1, 1, 1]])
    assert is_real_node.dtype == numpy.float32
    unmasked = _molnet.concat_molecules(examples, is_real_node=False)
    assert len(unmasked) == 3 and all(numpy.array_equal(a, b) for a, b in zip(unmasked, expected))


@pytest.mark.parametrize("method", ["ggnn", "nfp"])
def test_a_prediction_does_not_depend_on_the_molecules_batched_with_it(method):
    numpy.random.seed(0)
    predictor = _molnet.MolNetRecipe("delaney", method).make_predictor(1)
    small, large = _features(method, ["CCO", "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCc1ccccc1"])
    alone = _molnet.predict(predictor, _dataset([small]))[0][0, 0]
    batched = _molnet.predict(predictor, _dataset([small, large]))[0][0, 0]
    assert batched == pytest.approx(alone, rel=1e-5, abs=1e-6)
    # without the mask, the large molecule's padding atoms enter the small one's readout
    unmasked = _molnet.predict(predictor, _dataset([small, large]), is_real_node=False)[0][0, 0]
    assert unmasked != pytest.approx(alone, rel=1e-2, abs=1e-3)


def test_the_classification_loss_ignores_missing_labels():
    examples = _features("ggnn", ["CO", "CCO", "CCCO"])
    labels = numpy.array([[1, -1], [0, 1], [-1, 0]], numpy.int32)
    numpy.random.seed(0)
    model = _molnet.MolNetRecipe("tox21", "ggnn")._model(_dataset(examples, labels))
    batch = _molnet.concat_molecules([e[:2] + (t,) for e, t in zip(examples, labels)])
    loss = float(model(*batch).array)
    y = model.predictor(*batch[:-1]).array.astype(numpy.float64)
    known = labels != -1
    # the mean binary cross-entropy over the four known labels only
    expected = numpy.mean(numpy.logaddexp(0, y[known]) - labels[known] * y[known])
    assert loss == pytest.approx(expected, rel=1e-5)


@pytest.fixture
def molnet(shared_data_folder, tmp_path, monkeypatch):
    """MoleculeNet served offline from the real datasets' copy into a fresh dataset cache."""
    mirror = shared_data_folder("moleculenet")
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", mirror)
    monkeypatch.setenv("KUSARI_DATASET_ROOT", str(tmp_path / "datasets"))
    return mirror


def test_random_splits_follow_the_seed_and_the_scaffold_split_does_not(molnet):
    tier = Tier(budget=1, options={"num_data": 100})
    esol = _molnet.MolNetRecipe("delaney", "nfp")
    first, again, other = esol.load(tier, 0), esol.load(tier, 0), esol.load(tier, 1)
    assert [len(part) for part in first] == [80, 10, 10]
    labels = [part.get_datasets()[-1] for part in (first[2], again[2], other[2])]
    numpy.testing.assert_array_equal(labels[0], labels[1])
    assert not numpy.array_equal(labels[0], labels[2])
    assert labels[0].dtype == numpy.float32
    bbbp = _molnet.MolNetRecipe("bbbp", "ggnn")
    scaffold = [bbbp.load(tier, seed)[2].get_datasets()[0] for seed in (0, 1)]
    assert len(scaffold[0]) == len(scaffold[1]) and all(
        numpy.array_equal(a, b) for a, b in zip(scaffold[0], scaffold[1]))


def test_bbbp_skips_and_counts_its_unparsable_smiles(molnet, caplog):
    # the shared copy of BBBP.csv has 2050 rows, 11 of whose SMILES RDKit cannot parse
    with caplog.at_level("WARNING"):
        parts = _molnet.MolNetRecipe("bbbp", "nfp").load(Tier(budget=1), 0)
    assert sum(len(part) for part in parts) == 2039
    assert "skipped 11 of 2050 molecules" in caplog.text


@pytest.mark.parametrize("name", ["esol_ggnn", "tox21_nfp"])
def test_a_tiny_run_scores_the_test_part_at_the_best_validation_epoch(name, molnet, tmp_path, dirty_tree):
    repro = _module(name).REPRODUCTION
    tier = Tier(budget=3, bound=repro.bound("quick"), options={"num_data": 120})
    repro = repro.__class__(**{**repro.__dict__, "tiers": {"quick": tier}})
    result = runner.run(repro, "quick", seeds=1, out=str(tmp_path / "out"), work=str(tmp_path / "work"))
    assert result["budget"] == 3 and result["budget_unit"] == "epochs" and result["publishable"] is False
    with open(runner.result_path(str(tmp_path / "out"), repro.name, "quick")) as f:
        assert json.load(f)["values"] == result["values"]
    work, = os.listdir(tmp_path / "work")
    with open(tmp_path / "work" / work / "seed0" / _molnet.HISTORY_FILE) as f:
        history = json.load(f)
    assert [record["epoch"] for record in history] == [1, 2, 3]
    metric = repro.target.metric
    valid = [record[metric.replace("test_", "valid_")] for record in history]
    best = int(numpy.argmin(valid) if metric == "test_rmse" else numpy.argmax(valid))
    # the reported value is the test metric of the best validation epoch, not of the last one
    assert result["values"][0] == pytest.approx(history[best][metric], rel=1e-6)
