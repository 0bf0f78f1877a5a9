"""examples/rl/train_rainbow_gym.py: the agent it assembles is PFRL's Rainbow (noisy distributional
dueling network, Greedy explorer, 3-step prioritized replay with beta annealed over the run,
CategoricalDoubleDQN); the script trains for a few hundred steps, evaluates, saves, and demos the
saved agent."""
import glob
import importlib.util
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("gymnasium")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SCRIPT = os.path.join(ROOT, "examples", "rl", "train_rainbow_gym.py")
STEPS = 304
SMALL = ["--n-hidden-channels", "16", "--replay-start-size", "64", "--target-update-interval", "64",
         "--update-interval", "2"]


def _run(cwd, *args):
    # one BLAS thread: for these tiny matrices threads only contend for the shared cores
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    return subprocess.run([sys.executable, SCRIPT, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, check=False)


@pytest.fixture
def script(monkeypatch):
    """The script as a module (its folder on sys.path for ``import _common``)."""
    monkeypatch.syspath_prepend(os.path.dirname(SCRIPT))
    spec = importlib.util.spec_from_file_location("train_rainbow_gym", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_build_agent_assembles_pfrls_rainbow(script):
    from kusari.rl import explorers, nn, replay_buffers
    from kusari.rl.agents.categorical_dqn import CategoricalDoubleDQN

    args = script.parse_args(["--steps", "8000", "--update-interval", "4"])
    env = script._common.make_env(args.env, args.seed)
    agent = script.build_agent(args, env)
    assert type(agent) is CategoricalDoubleDQN and isinstance(agent.explorer, explorers.Greedy)
    assert agent.gamma == 0.99 and agent.minibatch_size == 32 and agent.batch_accumulator == "mean"
    noisy = [name for name, link in agent.model.namedlinks() if isinstance(link, nn.FactorizedNoisyLinear)]
    assert sorted(noisy) == ["/a_stream", "/hidden_layers/0", "/main_stream", "/v_stream"]
    assert all(link.sigma_scale == 0.5 for link in agent.model.links() if isinstance(link, nn.FactorizedNoisyLinear))
    buffer = agent.replay_buffer
    assert isinstance(buffer, replay_buffers.PrioritizedReplayBuffer)
    assert (buffer.alpha, buffer.beta, buffer.num_steps, buffer.normalize_by_max) == (0.5, 0.4, 3, "memory")
    # beta reaches 1 at the run's last update: 8000 steps / one update every 4 steps
    assert buffer.beta_add == pytest.approx(0.6 / 2000)
    assert agent.optimizer.eps == 1.5e-4 and agent.optimizer.alpha == 1e-3
    assert agent.model.z_values[0] == 0 and agent.model.z_values[-1] == 100 and len(agent.model.z_values) == 51


def test_refuses_a_continuous_env(script):
    args = script.parse_args(["--env", "Pendulum-v1"])
    with pytest.raises(SystemExit, match="Rainbow needs a Discrete action space"):
        script.build_agent(args, script._common.make_env(args.env, args.seed))


def test_train_then_demo(tmp_path):
    proc = _run(tmp_path, "--steps", str(STEPS), "--eval-interval", str(STEPS), "--eval-n-runs", "2",
                "--outdir", "out", *SMALL)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (run_dir,) = glob.glob(str(tmp_path / "out" / "*"))
    with open(os.path.join(run_dir, "scores.txt")) as f:
        header, *rows = [line.rstrip("\n").split("\t") for line in f]
    assert len(rows) == 1
    row = dict(zip(header, rows[0]))
    # (304 - 64) / 2 updates after 64 steps of collection, one every 2 steps
    assert int(row["steps"]) == STEPS and float(row["n_updates"]) == 120
    assert float(row["average_loss"]) > 0
    finish = os.path.join(run_dir, f"{STEPS}_finish")
    assert os.path.isfile(os.path.join(finish, "agent.npz"))
    demo = _run(tmp_path, "--demo", "--load", finish, "--eval-n-runs", "2", *SMALL)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    assert re.search(r"n_runs: 2 mean: -?[0-9.]+ median: -?[0-9.]+ stdev: [0-9.]+", demo.stdout), demo.stdout


def test_load_pretrained_has_no_rainbow_entry(tmp_path):
    proc = _run(tmp_path, "--load-pretrained")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "'rainbow-cartpole'" in proc.stderr
