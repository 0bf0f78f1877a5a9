"""The Gym training scripts of examples/rl train for a few hundred steps, evaluate, save, and demo
the saved agent; --load-pretrained demos the zoo's agent, or exits with status 2 for an entry the
zoo lacks."""
import glob
import os
import re
import subprocess
import sys

import numpy
import pytest

pytest.importorskip("gymnasium")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
STEPS = 304  # a multiple of the batch scripts' 8 envs, so that training ends on it
SCORE_COLUMNS = ["steps", "episodes", "elapsed", "mean", "median", "stdev", "max", "min"]

# script -> (small-network arguments, shared by training and demo; the statistic that shows the
# agent learned during the run: it is 0 until the first update)
CASES = {
    "dqn": (["--n-hidden-channels", "32", "--replay-start-size", "64", "--minibatch-size", "32",
             "--update-interval", "4", "--n-times-update", "1", "--target-update-interval", "64"],
            "n_updates"),
    "ppo": (["--n-hidden-channels", "16", "--update-interval", "64", "--minibatch-size", "32",
             "--epochs", "2"], "n_updates"),
    "a2c": (["--n-hidden-channels", "16"], "average_value"),
    "a3c": (["--n-hidden-channels", "16", "--processes", "2"], "average_value"),
    "ddpg": (["--hidden-sizes", "32", "--replay-start-size", "100", "--minibatch-size", "32"],
             "n_updates"),
    "td3": (["--hidden-sizes", "32", "--replay-start-size", "100", "--minibatch-size", "32"],
            "q_func_n_updates"),
    "sac": (["--hidden-sizes", "32", "--replay-start-size", "100", "--minibatch-size", "32"],
            "n_updates"),
}


def _run(name, cwd, *args):
    # one BLAS thread: for these tiny matrices threads only contend for the shared cores
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    script = os.path.join(ROOT, "examples", "rl", f"train_{name}_gym.py")
    return subprocess.run([sys.executable, script, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, check=False)


# every case runs in a few seconds (two subprocesses of tiny networks), so none is marked slow
@pytest.mark.parametrize("name", list(CASES))
def test_train_then_demo(name, tmp_path):
    net_args, learned_stat = CASES[name]
    proc = _run(name, tmp_path, "--steps", str(STEPS), "--eval-interval", str(STEPS), "--eval-n-runs", "2",
                "--outdir", "out", *net_args)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (run_dir,) = glob.glob(str(tmp_path / "out" / "*"))  # prepare_output_dir's timestamped folder
    with open(os.path.join(run_dir, "scores.txt")) as f:
        header, *rows = [line.rstrip("\n").split("\t") for line in f]
    assert header[:len(SCORE_COLUMNS)] == SCORE_COLUMNS and learned_stat in header
    assert len(rows) == 1, rows  # --eval-interval == --steps: one evaluation, at the end
    row = dict(zip(header, rows[0]))
    assert int(row["steps"]) == STEPS and float(row[learned_stat]) != 0
    assert f"step {STEPS}: eval mean" in proc.stdout

    finish = os.path.join(run_dir, f"{STEPS}_finish")
    demo = _run(name, tmp_path, "--demo", "--load", finish, "--eval-n-runs", "2", *net_args)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    assert re.search(r"n_runs: 2 mean: -?[0-9.]+ median: -?[0-9.]+ stdev: [0-9.]+", demo.stdout), demo.stdout


def test_demo_load_reads_the_folder(tmp_path):
    proc = _run("dqn", tmp_path, "--demo", "--load", str(tmp_path / "missing"), "--eval-n-runs", "1")
    assert proc.returncode != 0 and "missing" in proc.stderr


@pytest.mark.parametrize("name", list(CASES))
def test_load_pretrained_unknown_name_exits_2(name, tmp_path):
    proc = _run(name, tmp_path, "--load-pretrained", "unknown-name")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "'unknown-name'" in proc.stderr and "--load-pretrained" in proc.stderr
    assert not (tmp_path / "results").exists()  # nothing was trained


@pytest.mark.parametrize("name", ["dqn", "sac"])
def test_load_pretrained_alone_demos_the_scripts_zoo_agent(name, tmp_path):
    proc = _run(name, tmp_path, "--load-pretrained", "--demo", "--eval-n-runs", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"n_runs: 1 mean: -?[0-9.]+", proc.stdout), proc.stdout
    assert not (tmp_path / "results").exists()  # a demo trains nothing


def test_pretrained_continuous_agent_acts_in_the_scripts_action_range(tmp_path):
    # the scripts' envs take actions in [-1, 1] (make_env); the zoo's agent scaled onto Pendulum's
    # [-2, 2] would have its actions scaled twice
    sys.path.insert(0, os.path.join(ROOT, "examples", "rl"))
    try:
        import _common
    finally:
        sys.path.pop(0)
    args = _common.build_parser("", "Pendulum-v1", 1, 1, "sac-pendulum").parse_args(["--load-pretrained"])
    agent = _common.load_agent(args, build=None)
    env = _common.make_env("Pendulum-v1", seed=0)
    obs, _ = env.reset(seed=0)
    with agent.eval_mode():
        action = agent.act(obs)
    assert env.action_space.contains(numpy.asarray(action, dtype=numpy.float32)), action
