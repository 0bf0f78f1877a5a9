"""reproductions.runner, driven by a reproduction that is not a classifier.

The fake domain: an "agent" with one parameter that learns the mean reward of a noisy environment
over a budget of environment steps; it saves itself as a folder, as PFRL agents do. It proves the
framework domain-neutral: seeds, resume, result JSON, RESULTS.md row, zoo hand-off of a
non-network artifact, and ``model_zoo.load`` of a loader entry.
"""
import contextlib
import hashlib
import json
import math
import os
import random
import tempfile

import numpy
import pytest

import kusari.model_zoo as zoo
from kusari.model_zoo import registry
from reproductions import report, runner
from reproductions.spec import Reproduction, Target, Tier

MEAN_REWARD = 3.0


class ScalarAgent:
    """Estimates the environment's mean reward by a running average; acts by returning it."""

    def __init__(self, lr=0.05):
        self.lr = lr
        self.theta = 0.0
        self.training = True

    def act(self, obs):
        return self.theta

    def observe(self, obs, reward, done, reset):
        if self.training:
            self.theta += self.lr * (reward - self.theta)

    @contextlib.contextmanager
    def eval_mode(self):
        self.training = False
        try:
            yield
        finally:
            self.training = True

    def save(self, dirname):
        os.makedirs(os.path.join(dirname, "params"), exist_ok=True)
        numpy.save(os.path.join(dirname, "params", "theta.npy"), numpy.array([self.theta]))
        with open(os.path.join(dirname, "agent.json"), "w") as f:
            json.dump({"lr": self.lr}, f)

    def load(self, dirname):
        self.theta = float(numpy.load(os.path.join(dirname, "params", "theta.npy"))[0])


def _train(tier, seed, work_dir, calls=None):
    if calls is not None:
        calls.append((tier.budget, seed, work_dir))
    agent = ScalarAgent()
    for _ in range(tier.budget):
        # both global generators: the runner seeds NumPy's and Python's
        reward = MEAN_REWARD + numpy.random.randn() + random.gauss(0.0, 0.5)
        agent.observe(agent.act(None), reward, False, False)
    return agent


def _evaluate(agent, tier, seed):
    return abs(agent.theta - MEAN_REWARD)


def save_agent(agent, path):
    """The zoo save hook: the agent's folder packed into one .npz."""
    with tempfile.TemporaryDirectory() as folder:
        agent.save(folder)
        zoo.pack_directory(folder, path)


def load_agent(path, lr):
    """The zoo loader: a ready agent, in evaluation mode's defaults, from the packed folder."""
    agent = ScalarAgent(lr=lr)
    with tempfile.TemporaryDirectory() as folder:
        zoo.unpack_directory(path, folder)
        agent.load(folder)
    return agent


def _repro(train=_train, evaluate=_evaluate, budget=300, save=save_agent, recipe="running mean"):
    return Reproduction(
        name="toy/scalar", task="mean reward of a noisy environment",
        target=Target(value=0.0, metric="deviation", direction="lower", tolerance=0.3, citation="none"),
        budget_unit="environment steps",
        tiers={"quick": Tier(budget=50, bound=1.0, options={"noise": 1.0}), "full": Tier(budget=budget)},
        train=train, evaluate=evaluate, recipe=recipe, zoo_name="toy-scalar", save=save,
        config={"lr": 0.05})


def _run(tmp_path, repro, tier="full", seeds=2, **kw):
    return runner.run(repro, tier, seeds, out=str(tmp_path / "out"), work=str(tmp_path / "work"),
                      weights_dir=str(tmp_path / "weights"), **kw)


def _work(root, tier):
    """The work folder of toy/scalar's ``tier`` under ``root`` (its name ends in the recipe's fingerprint)."""
    found = [d for d in os.listdir(root) if d.startswith(f"toy.scalar.{tier}-")]
    assert len(found) == 1, found
    return root / found[0]


def _theta(seed, budget=300):
    """The parameter that seed ``seed`` reaches, trained here with both generators seeded by hand."""
    numpy.random.seed(seed)
    random.seed(seed)
    return _train(Tier(budget=budget), seed, None).theta


def test_result_json(tmp_path, dirty_tree):
    result = _run(tmp_path, _repro(), tier="quick")  # a quick tier may run on a modified tree
    path = runner.result_path(str(tmp_path / "out"), "toy/scalar", "quick")
    assert path.endswith("toy.scalar.quick.json")
    with open(path) as f:
        saved = json.load(f)
    assert saved == result
    assert saved["budget"] == 50 and saved["budget_unit"] == "environment steps"
    assert saved["options"] == {"noise": 1.0} and saved["config"] == {"lr": 0.05}
    assert saved["tier"] == "quick" and saved["seeds"] == [0, 1] and saved["bound"] == 1.0
    assert saved["values"] == pytest.approx([abs(_theta(s, 50) - MEAN_REWARD) for s in (0, 1)])
    assert saved["mean"] == pytest.approx(numpy.mean(saved["values"]))
    assert saved["std"] == pytest.approx(numpy.std(saved["values"], ddof=1))
    assert saved["passed"] == (saved["mean"] <= 1.0)
    assert saved["git_commit"] == dirty_tree and saved["publishable"] is False
    assert saved["target"]["citation"] == "none"
    assert set(saved["hardware"]) == {"cpu", "cores", "device"} and saved["hardware"]["cores"] >= 1
    for key in ("kusari_version", "date", "wall_time_s", "run_wall_time_s"):
        assert key in saved
    assert "weights" not in saved  # only the full tier makes a zoo file
    with open(_work(tmp_path / "work", "quick") / "run.log") as f:
        log = f.read()
    assert "seed 1: training 50 environment steps in" in log and "seed 1: deviation=" in log


def test_seeds_are_reproducible_and_distinct(tmp_path, clean_tree):
    a = _run(tmp_path / "a", _repro())
    b = _run(tmp_path / "b", _repro())
    assert a["values"] == b["values"]
    assert a["values"][0] != a["values"][1]
    assert a["values"] == pytest.approx([abs(_theta(s) - MEAN_REWARD) for s in (0, 1)])


def test_each_seed_gets_its_own_work_folder(tmp_path, clean_tree):
    calls = []
    _run(tmp_path, _repro(train=lambda *args: _train(*args, calls=calls)))
    work = _work(tmp_path / "work", "full")
    assert calls == [(300, 0, str(work / "seed0")), (300, 1, str(work / "seed1"))]


def test_finished_seeds_are_not_trained_again(tmp_path, clean_tree):
    first = _run(tmp_path, _repro(), seeds=1)

    def fail(*args):
        raise AssertionError("a finished seed was trained again")

    again = _run(tmp_path, _repro(train=fail), seeds=1)
    assert again["values"] == first["values"]
    calls = []
    more = _run(tmp_path, _repro(train=lambda *args: _train(*args, calls=calls)), seeds=2)
    assert [seed for _, seed, _ in calls] == [1] and more["values"][0] == first["values"][0]


def test_a_changed_recipe_does_not_reuse_finished_seeds(tmp_path, clean_tree):
    first = _run(tmp_path, _repro(budget=300), seeds=1)
    longer = _run(tmp_path, _repro(budget=400), seeds=1)
    reworded = _run(tmp_path, _repro(budget=400, recipe="another recipe"), seeds=1)
    assert first["budget"] == 300 and longer["budget"] == 400
    assert longer["values"] == reworded["values"] != first["values"]
    assert len([d for d in os.listdir(tmp_path / "work") if d.startswith("toy.scalar.full-")]) == 3


def test_full_tier_hands_a_non_network_artifact_to_the_zoo(tmp_path, clean_tree, monkeypatch):
    result = _run(tmp_path, _repro())
    weights = tmp_path / "weights" / "toy-scalar.npz"
    assert result["weights"] == {"zoo_name": "toy-scalar", "file": "toy-scalar.npz",
                                 "sha256": hashlib.sha256(weights.read_bytes()).hexdigest(),
                                 "seed": 0, "value": result["values"][0]}
    assert result["publishable"] is True and result["git_commit"] == clean_tree
    with numpy.load(weights) as packed:
        assert sorted(packed.files) == ["agent.json", "params/theta.npy"]

    # a test-local registry holding only the handed-off file, as model_zoo/entries.py would register it
    monkeypatch.setattr(registry, "_REGISTRY", {})
    monkeypatch.setattr(registry, "_WEIGHTS_DIR", str(tmp_path / "weights"))
    zoo.register(zoo.Entry(name="toy-scalar", loader=f"{__name__}:load_agent", params={"lr": 0.05},
                           file="toy-scalar.npz", sha256=result["weights"]["sha256"],
                           metric={"deviation": result["weights"]["value"]}))
    agent = zoo.load("toy-scalar")
    assert isinstance(agent, ScalarAgent) and agent.lr == 0.05
    assert agent.theta == _theta(0)
    with agent.eval_mode():
        agent.observe(None, 100.0, False, False)
    assert agent.act(None) == _theta(0)
    with pytest.raises(ValueError, match="'toy-scalar' is not a network .* use kusari.model_zoo.load"):
        registry.architecture("toy-scalar")


def test_a_link_is_saved_with_save_npz_by_default(tmp_path, clean_tree):
    from kusari import serializers
    from kusari.model_zoo.models import MnistMLP

    def train(tier, seed, work_dir):
        return MnistMLP(n_in=3, n_units=2, n_out=2)

    result = _run(tmp_path, _repro(train=train, evaluate=lambda model, tier, seed: 0.0, save=None), seeds=1)
    numpy.random.seed(0)
    expected = MnistMLP(n_in=3, n_units=2, n_out=2)
    loaded = MnistMLP(n_in=3, n_units=2, n_out=2)
    serializers.load_npz(str(tmp_path / "weights" / result["weights"]["file"]), loaded)
    numpy.testing.assert_array_equal(loaded.l1.W.array, expected.l1.W.array)


def test_an_artifact_too_large_to_ship_stays_in_the_work_folder(tmp_path, clean_tree, monkeypatch):
    monkeypatch.setattr(runner, "SHIPPED_FILE_LIMIT", 10)
    result = _run(tmp_path, _repro(), seeds=1)
    target = _work(tmp_path / "work", "full") / "toy-scalar.npz"
    assert result["weights"]["file"] == str(target) and target.exists()
    assert not (tmp_path / "weights" / "toy-scalar.npz").exists()


def test_report_row_of_a_non_classification_result(tmp_path, clean_tree):
    _run(tmp_path, _repro())
    text = open(report.write_report(str(tmp_path / "out"), str(tmp_path / "RESULTS.md"))).read()
    row = next(line for line in text.splitlines() if line.startswith("| toy/scalar |"))
    assert row.startswith("| toy/scalar | full | 300 environment steps | deviation | 0 | ≤ 0.3 |")
    assert f"`{clean_tree[:12]}`" in row
    assert "`toy-scalar` from toy/scalar seed 0 (deviation " in text


def test_a_full_tier_refuses_a_modified_tree(tmp_path, dirty_tree):
    def fail(*args):
        raise AssertionError("trained on a modified tree")

    with pytest.raises(runner.DirtyTreeError, match=r"tree is at 0123456789abcdef\S+\+dirty .*commit first"):
        _run(tmp_path, _repro(train=fail))
    assert not (tmp_path / "out").exists()


def test_allow_dirty_is_a_development_run(tmp_path, dirty_tree):
    result = _run(tmp_path, _repro(), seeds=1, allow_dirty=True)
    assert result["publishable"] is False and result["git_commit"] == dirty_tree
    assert "weights" not in result and not (tmp_path / "weights").exists()
    assert report.load_results(str(tmp_path / "out")) == []


def test_a_non_link_artifact_needs_a_save_hook(tmp_path, clean_tree):
    with pytest.raises(TypeError, match="toy/scalar: train returned a ScalarAgent, not a Link; declare save="):
        _run(tmp_path, _repro(save=None))


@pytest.mark.parametrize("value, error, message", [
    ("0.1", TypeError, "evaluate must return a float, got str"),
    (math.nan, ValueError, "evaluate returned nan for seed 0"),
])
def test_evaluate_must_return_a_finite_number(tmp_path, clean_tree, value, error, message):
    with pytest.raises(error, match=f"toy/scalar: {message}"):
        _run(tmp_path, _repro(evaluate=lambda agent, tier, seed: value))


def test_invalid_arguments(tmp_path, clean_tree):
    with pytest.raises(ValueError, match="seeds must be a positive int, got 0"):
        _run(tmp_path, _repro(), seeds=0)
    with pytest.raises(ValueError, match="jobs must be a positive int, got 0"):
        _run(tmp_path, _repro(), jobs=0)
    with pytest.raises(ValueError, match="jobs=2 needs 'toy/scalar' to be in reproductions.catalog"):
        _run(tmp_path, _repro(), jobs=2)
    with pytest.raises(ValueError, match="unknown tier 'huge'"):
        _run(tmp_path, _repro(), tier="huge")
