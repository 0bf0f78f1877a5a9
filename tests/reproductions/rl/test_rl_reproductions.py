"""The RL reproductions: declarations, a quick tier end to end, the zoo hand-off through a loader entry."""
import importlib
import json
import os
import shutil
import sys

import numpy
import pytest

gymnasium = pytest.importorskip("gymnasium")

import kusari.model_zoo as zoo  # noqa: E402  (after the skip: the RL modules need gymnasium)
from kusari.model_zoo import agents, registry  # noqa: E402
from kusari.utils import file_sha256  # noqa: E402
from reproductions import catalog, runner  # noqa: E402
from reproductions.rl._recipe import EVAL_SEED_OFFSET, ZooRecipe  # noqa: E402
from reproductions.spec import Tier  # noqa: E402

# module -> (kind, environment, the pass bound of the full tier, the zoo's n_timesteps)
MODULES = {
    "cartpole_dqn": ("dqn", "CartPole-v1", 475.0, 50_000),
    "cartpole_ppo": ("ppo", "CartPole-v1", 475.0, 100_000),
    "cartpole_a2c": ("a2c", "CartPole-v1", 475.0, 500_000),
    "cartpole_a3c": ("a3c", "CartPole-v1", 475.0, 500_000),
    "pendulum_td3": ("td3", "Pendulum-v1", -200.0, 20_000),
    "pendulum_sac": ("sac", "Pendulum-v1", -200.0, 20_000),
    "pendulum_ddpg": ("ddpg", "Pendulum-v1", -200.0, 20_000),
    "lunarlander_ppo": ("ppo", "LunarLander-v3", 200.0, 1_000_000),
}


def _module(name):
    if name.startswith("lunarlander"):
        pytest.importorskip("Box2D")
    return importlib.import_module(f"reproductions.rl.{name}")


@pytest.mark.parametrize("name", sorted(MODULES))
def test_declarations(name):
    module = _module(name)
    repro, recipe = module.REPRODUCTION, module.RECIPE
    kind, env_id, threshold, n_timesteps = MODULES[name]
    assert repro.name == f"rl/{name}" and repro.budget_unit == "environment steps"
    assert (recipe.kind, recipe.env_id) == (kind, env_id)
    assert set(repro.tiers) == {"quick", "full"}
    assert repro.tier("full").budget == n_timesteps and repro.tier("full").bound is None
    assert repro.bound("full") == pytest.approx(threshold, abs=1e-6)
    target = repro.target
    assert target.metric == "mean_return" and target.direction == "higher"
    assert target.value > threshold
    assert "benchmark.md, commit 22e3ff2" in target.citation
    assert target.citation.count(f"mean_reward {target.value:.3f}") == 1
    quick = repro.tier("quick")
    assert quick.budget <= 5000 and repro.bound("quick") < threshold and "pipeline check" in quick.note
    assert repro.zoo_name == f"{kind}-{env_id.split('-')[0].lower()}" and repro.save is agents.save_agent
    assert recipe.loader_params == {"kind": kind, "env_id": env_id, **recipe.architecture}
    json.dumps(repro.config)  # it names the work folder, so it must be JSON-able
    assert module.__doc__.count("hyperparams/") == 1 and module.__doc__.count("pipeline check") == 1


def test_catalog_lists_the_rl_reproductions():
    available, unavailable = catalog.discover()
    assert {f"rl/{m}" for m in MODULES} <= set(available) | set(unavailable)


def test_lunarlander_is_unavailable_without_box2d(monkeypatch):
    monkeypatch.setitem(sys.modules, "Box2D", None)  # makes `import Box2D` fail as if not installed
    monkeypatch.delitem(sys.modules, "reproductions.rl.lunarlander_ppo", raising=False)
    available, unavailable = catalog.discover()
    assert "rl/lunarlander_ppo" not in available
    assert unavailable["rl/lunarlander_ppo"] == "needs the 'Box2D' module: pip install -e '.[rl,box2d]'"
    assert "rl/cartpole_dqn" in available


def test_recipe_rejects_unknown_hyperparameters():
    with pytest.raises(ValueError, match=r"hyperparameters names \['epsilon'\], which dqn does not take"):
        ZooRecipe(kind="dqn", env_id="CartPole-v1", architecture={}, hyperparameters={"epsilon": 0.1})


def test_budget_fractions_and_options_reach_the_agent():
    recipe = _module("cartpole_dqn").RECIPE
    agent = recipe.make_agent(Tier(budget=10_000, options={"minibatch_size": 7, "replay_start_size": 7}))
    assert agent.explorer.decay_steps == 1600 and agent.minibatch_size == 7
    assert agent.explorer.end_epsilon == 0.04 and agent.n_times_update == 128


def _tiny_run(tmp_path, module, tier, **kwargs):
    repro = _module(module).REPRODUCTION
    repro = repro.__class__(**{**repro.__dict__, "tiers": {"quick": tier}})
    return repro, runner.run(repro, "quick", seeds=1, out=str(tmp_path / "out"),
                             work=str(tmp_path / "work"), **kwargs)


def _seed_dir(tmp_path, repro):
    work, = os.listdir(tmp_path / "work")
    assert work.startswith(runner.slug(repro.name, "quick"))
    return tmp_path / "work" / work / "seed0"


def test_a_short_run_trains_evaluates_and_saves(tmp_path, dirty_tree):
    tier = Tier(budget=600, bound=9.0, options={"replay_start_size": 100, "update_interval": 100,
                                                "n_times_update": 4, "target_update_interval": 100})
    repro, result = _tiny_run(tmp_path, "cartpole_dqn", tier)
    assert result["budget"] == 600 and result["budget_unit"] == "environment steps"
    assert result["passed"] is True and result["values"][0] >= 9.0
    seed_dir = _seed_dir(tmp_path, repro)
    with open(seed_dir / "training" / "scores.txt") as f:
        rows = f.read().splitlines()
    assert rows[0].startswith("steps\tepisodes") and len(rows) >= 10  # an evaluation every 60 steps
    assert (seed_dir / "training" / "600_finish" / "agent.npz").is_file()
    with numpy.load(seed_dir / runner.ARTIFACT_FILE) as weights:  # the networks, no optimizer state
        assert "model/0/hidden_layers/0/W" in weights.files and "target_model/0/output/b" in weights.files
        assert not any(key.startswith("optimizer/") for key in weights.files)


def test_evaluation_uses_a_fresh_seed_of_the_raw_env(monkeypatch):
    recipe = _module("cartpole_dqn").RECIPE
    seeds = []
    reset = gymnasium.envs.classic_control.CartPoleEnv.reset

    def spy(self, *, seed=None, options=None):
        seeds.append(seed)
        return reset(self, seed=seed, options=options)

    monkeypatch.setattr(gymnasium.envs.classic_control.CartPoleEnv, "reset", spy)
    agent = recipe.make_agent(Tier(budget=100))
    value = recipe.evaluate(agent, Tier(budget=100), seed=3)
    assert seeds[0] == EVAL_SEED_OFFSET + 3 and seeds[1:] == [None] * 20
    assert agent.training is True and 8 <= value <= 500


def _register_artifact(monkeypatch, tmp_path, repro, recipe, artifact):
    """A test-local zoo entry for ``artifact``, as model_zoo/entries.py will register the full tier's."""
    weights = tmp_path / "weights"
    weights.mkdir()
    shutil.copyfile(artifact, weights / f"{repro.zoo_name}.npz")
    monkeypatch.setattr(registry, "_REGISTRY", {})
    monkeypatch.setattr(registry, "_WEIGHTS_DIR", str(weights))
    zoo.register(zoo.Entry(name=repro.zoo_name, loader="kusari.model_zoo.agents:load_agent",
                           params=recipe.loader_params, file=f"{repro.zoo_name}.npz",
                           sha256=file_sha256(str(artifact)), dataset=recipe.env_id))


@pytest.mark.parametrize("module", ["cartpole_dqn", "pendulum_td3"])
def test_save_hook_and_zoo_loader_give_the_trained_agent(module, tmp_path, monkeypatch):
    repro, recipe = _module(module).REPRODUCTION, _module(module).RECIPE
    tier = Tier(budget=200, options={"replay_start_size": 64, "minibatch_size": 32})
    numpy.random.seed(0)
    trained = repro.train(tier, 0, str(tmp_path))
    artifact = tmp_path / "artifact.npz"
    repro.save(trained, str(artifact))
    _register_artifact(monkeypatch, tmp_path, repro, recipe, artifact)

    numpy.random.seed(1)  # the loader's fresh networks differ from the trained ones
    loaded = zoo.load(repro.zoo_name)
    env = gymnasium.make(recipe.env_id)
    observations = [env.observation_space.sample() for _ in range(32)]
    with loaded.eval_mode(), trained.eval_mode():
        actions = numpy.array(loaded.batch_act(observations))
        numpy.testing.assert_array_equal(actions, numpy.array(trained.batch_act(observations)))
    if recipe.env_id == "Pendulum-v1":
        assert isinstance(loaded, agents.ScaledActionAgent)
        assert actions.dtype == numpy.float32 and (numpy.abs(actions) <= 2).all()
        assert all(env.action_space.contains(a) for a in actions)
        assert (numpy.abs(actions) > 1).any()  # the torque range, not the policy's [-1, 1]


@pytest.mark.slow
def test_cartpole_dqn_quick_tier_end_to_end(tmp_path, dirty_tree):
    repro = _module("cartpole_dqn").REPRODUCTION
    result = runner.run(repro, "quick", seeds=1, out=str(tmp_path / "out"), work=str(tmp_path / "work"))
    assert result["passed"] is True and result["bound"] == 9.0 and result["publishable"] is False
    with open(runner.result_path(str(tmp_path / "out"), repro.name, "quick")) as f:
        assert json.load(f)["values"] == result["values"]
