"""reproductions.runner: result JSON, zoo weights, skipping finished seeds, resuming from snapshots."""
import hashlib
import json
import os

import numpy
import pytest

from kusari import optimizers, serializers
from kusari.datasets import TupleDataset
from kusari.model_zoo.models import MnistMLP
from reproductions import runner
from reproductions.spec import Reproduction, Target, Tier


def _blobs(n, seed):
    """Two well separated Gaussian blobs in 4-D, labels 0/1."""
    rs = numpy.random.RandomState(seed)
    t = rs.randint(0, 2, n).astype(numpy.int32)
    x = (rs.randn(n, 4) + 3.0 * (2 * t[:, None] - 1)).astype(numpy.float32)
    return TupleDataset(x, t)


def _repro(make_model=None, epochs=2):
    return Reproduction(
        name="toy/blobs", task="two blobs",
        target=Target(value=0.0, metric="test_error", direction="lower", tolerance=0.05, citation="none"),
        tiers={"quick": Tier(epochs=1, bound=0.2, train_size=100), "full": Tier(epochs=epochs)},
        make_model=make_model or (lambda: MnistMLP(n_in=4, n_units=8, n_out=2)),
        load_data=lambda: (_blobs(200, 0), _blobs(100, 1)),
        make_optimizer=lambda iterations: (optimizers.SGD(lr=0.1), []),
        batch_size=20, recipe="toy", zoo_name="toy-blobs")


def _run(tmp_path, repro, tier="full", seeds=2):
    return runner.run(repro, tier, seeds, out=str(tmp_path / "out"), work=str(tmp_path / "work"),
                      weights_dir=str(tmp_path / "weights"))


def _work(root, tier):
    """The work folder of toy/blobs' ``tier`` under ``root`` (its name ends in the recipe's fingerprint)."""
    found = [d for d in os.listdir(root) if d.startswith(f"toy.blobs.{tier}-")]
    assert len(found) == 1, found
    return root / found[0]


def _numpy_error(model, dataset):
    x, t = dataset._datasets
    h = numpy.maximum(x @ model.l1.W.array.T + model.l1.b.array, 0)
    y = h @ model.l2.W.array.T + model.l2.b.array
    return float(numpy.mean(y.argmax(axis=1) != t))


def test_classification_error_matches_numpy():
    numpy.random.seed(3)
    model = MnistMLP(n_in=4, n_units=8, n_out=2)
    data = _blobs(250, 2)
    assert runner.classification_error(model, data, batch_size=60) == pytest.approx(_numpy_error(model, data))


def test_result_json(tmp_path):
    result = _run(tmp_path, _repro(), tier="quick")
    path = runner.result_path(str(tmp_path / "out"), "toy/blobs", "quick")
    assert path.endswith("toy.blobs.quick.json")
    with open(path) as f:
        saved = json.load(f)
    assert saved == result
    assert saved["tier"] == "quick" and saved["seeds"] == [0, 1] and saved["bound"] == 0.2
    assert saved["mean"] == pytest.approx(numpy.mean(saved["values"]))
    assert saved["std"] == pytest.approx(numpy.std(saved["values"], ddof=1))
    assert saved["passed"] == (saved["mean"] <= 0.2)
    assert saved["target"]["citation"] == "none" and saved["train_size"] == 100
    assert set(saved["hardware"]) == {"cpu", "cores", "device"} and saved["hardware"]["cores"] >= 1
    for key in ("kusari_version", "git_commit", "date", "wall_time_s", "run_wall_time_s"):
        assert key in saved
    assert "weights" not in saved  # only the full tier makes zoo weights
    with open(_work(tmp_path / "work", "quick") / "run.log") as f:
        assert "seed 1: test_error=" in f.read()


def test_full_tier_writes_weights_with_their_sha256(tmp_path):
    result = _run(tmp_path, _repro())
    weights = tmp_path / "weights" / "toy-blobs.npz"
    assert result["weights"]["sha256"] == hashlib.sha256(weights.read_bytes()).hexdigest()
    model = MnistMLP(n_in=4, n_units=8, n_out=2)
    serializers.load_npz(str(weights), model)
    assert result["weights"]["seed"] == 0
    assert result["weights"]["value"] == result["values"][0] == pytest.approx(_numpy_error(model, _blobs(100, 1)))
    assert result["passed"] and result["mean"] <= 0.05  # the blobs are separable


def test_seeds_are_reproducible_and_distinct(tmp_path):
    a = _run(tmp_path / "a", _repro())
    b = _run(tmp_path / "b", _repro())
    assert a["values"] == b["values"]
    w = [numpy.load(_work(tmp_path / "a" / "work", "full") / f"seed{s}" / "model.npz") for s in (0, 1)]
    assert not numpy.array_equal(w[0]["l1/W"], w[1]["l1/W"])


def test_finished_seeds_are_not_trained_again(tmp_path):
    first = _run(tmp_path, _repro())

    def no_model():
        raise AssertionError("a finished seed was trained again")

    again = _run(tmp_path, _repro(make_model=no_model))
    assert again["values"] == first["values"]


def test_interrupted_seed_resumes_from_its_snapshot(tmp_path):
    first = _run(tmp_path, _repro(), seeds=1)
    seed_dir = _work(tmp_path / "work", "full") / "seed0"
    assert any(f.startswith("snapshot_epoch_") for f in os.listdir(seed_dir))
    os.remove(seed_dir / "seed_result.json")  # as if killed after the last snapshot
    calls = []

    class Counting(MnistMLP):
        def forward(self, x):
            calls.append(len(x))
            return super().forward(x)

    again = _run(tmp_path, _repro(make_model=lambda: Counting(n_in=4, n_units=8, n_out=2)), seeds=1)
    assert calls == [100]  # only the test evaluation: training resumed at its end
    assert again["values"] == first["values"]


def test_a_changed_recipe_does_not_reuse_finished_seeds(tmp_path):
    first = _run(tmp_path, _repro(epochs=2), seeds=1)
    longer = _run(tmp_path, _repro(epochs=3), seeds=1)
    assert first["epochs"] == 2 and longer["epochs"] == 3
    assert len([d for d in os.listdir(tmp_path / "work") if d.startswith("toy.blobs.full-")]) == 2


def test_invalid_arguments(tmp_path):
    with pytest.raises(ValueError, match="seeds must be a positive int, got 0"):
        _run(tmp_path, _repro(), seeds=0)
    with pytest.raises(ValueError, match="jobs must be a positive int, got 0"):
        runner.run(_repro(), "quick", 1, out=str(tmp_path), work=str(tmp_path), jobs=0)
    with pytest.raises(ValueError, match="jobs=2 needs 'toy/blobs' to be in reproductions.catalog"):
        runner.run(_repro(), "quick", 1, out=str(tmp_path), work=str(tmp_path), jobs=2)
    with pytest.raises(ValueError, match="unknown tier 'huge'"):
        _run(tmp_path, _repro(), tier="huge")
