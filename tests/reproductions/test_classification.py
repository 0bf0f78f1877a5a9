"""reproductions.classification: the Trainer-based steps of classifier reproductions, run by the runner."""
import hashlib
import os

import numpy
import pytest

from kusari import optimizers, serializers
from kusari.datasets import TupleDataset
from kusari.model_zoo.models import MnistMLP
from reproductions import runner
from reproductions.classification import Classification, classification_error
from reproductions.spec import Target, Tier


def _blobs(n, seed):
    """Two well separated Gaussian blobs in 4-D, labels 0/1."""
    rs = numpy.random.RandomState(seed)
    t = rs.randint(0, 2, n).astype(numpy.int32)
    x = (rs.randn(n, 4) + 3.0 * (2 * t[:, None] - 1)).astype(numpy.float32)
    return TupleDataset(x, t)


def _repro(make_model=None, epochs=2, batch_size=20):
    steps = Classification(make_model=make_model or (lambda: MnistMLP(n_in=4, n_units=8, n_out=2)),
                           load_data=lambda: (_blobs(200, 0), _blobs(100, 1)),
                           make_optimizer=lambda iterations: (optimizers.SGD(lr=0.1), []),
                           batch_size=batch_size)
    return steps.reproduction(
        name="toy/blobs", task="two blobs",
        target=Target(value=0.0, metric="test_error", direction="lower", tolerance=0.05, citation="none"),
        tiers={"quick": Tier(budget=1, bound=0.2, options={"train_size": 100}), "full": Tier(budget=epochs)},
        recipe="toy", zoo_name="toy-blobs")


def _run(tmp_path, repro, tier="full", seeds=2):
    return runner.run(repro, tier, seeds, out=str(tmp_path / "out"), work=str(tmp_path / "work"),
                      weights_dir=str(tmp_path / "weights"))


def _work(root, tier):
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
    assert classification_error(model, data, batch_size=60) == pytest.approx(_numpy_error(model, data))


def test_declaration():
    repro = _repro(batch_size=25)
    assert repro.budget_unit == "epochs" and repro.config == {"batch_size": 25} and repro.save is None


def test_unknown_tier_option():
    steps = Classification(make_model=None, load_data=None, make_optimizer=None, batch_size=1)
    with pytest.raises(ValueError, match=r"toy/x: tier 'quick' has unknown options \['train_sz'\]"):
        steps.reproduction(name="toy/x", task="t", target=None, recipe="r",
                           tiers={"quick": Tier(budget=1, options={"train_sz": 10})})


def test_quick_tier_trains_on_train_size_examples(tmp_path, dirty_tree):
    result = _run(tmp_path, _repro(), tier="quick", seeds=1)
    assert result["options"] == {"train_size": 100} and result["budget"] == 1
    log = (_work(tmp_path / "work", "quick") / "seed0" / "log").read_text()
    assert '"iteration": 5' in log  # 100 examples in batches of 20


def test_full_tier_writes_the_model_with_its_sha256(tmp_path, clean_tree):
    result = _run(tmp_path, _repro())
    weights = tmp_path / "weights" / "toy-blobs.npz"
    assert result["weights"]["sha256"] == hashlib.sha256(weights.read_bytes()).hexdigest()
    model = MnistMLP(n_in=4, n_units=8, n_out=2)
    serializers.load_npz(str(weights), model)
    assert result["weights"]["value"] == result["values"][0] == pytest.approx(_numpy_error(model, _blobs(100, 1)))
    assert result["passed"] and result["mean"] <= 0.05  # the blobs are separable


def test_seeds_are_reproducible_and_distinct(tmp_path, clean_tree):
    a = _run(tmp_path / "a", _repro())
    b = _run(tmp_path / "b", _repro())
    assert a["values"] == b["values"]
    w = [numpy.load(_work(tmp_path / "a" / "work", "full") / f"seed{s}" / runner.ARTIFACT_FILE) for s in (0, 1)]
    assert not numpy.array_equal(w[0]["l1/W"], w[1]["l1/W"])


def test_interrupted_seed_resumes_from_its_snapshot(tmp_path, clean_tree):
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


def test_a_changed_batch_size_does_not_reuse_finished_seeds(tmp_path, clean_tree):
    _run(tmp_path, _repro(batch_size=20), seeds=1)
    _run(tmp_path, _repro(batch_size=25), seeds=1)
    assert len([d for d in os.listdir(tmp_path / "work") if d.startswith("toy.blobs.full-")]) == 2
