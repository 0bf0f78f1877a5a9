"""examples/rl/mujoco: each script trains on Hopper-v5 for a few hundred steps (small updates),
evaluates, saves, and demos the saved agent; without MuJoCo a script names the extra. Skipped
without mujoco, the [mujoco] extra."""
import glob
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("mujoco", reason="the MuJoCo examples need mujoco: pip install 'kusari[mujoco]'")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
FOLDER = os.path.join(ROOT, "examples", "rl", "mujoco")
STEPS = 300
OFF_POLICY = ["--replay-start-size", "100", "--minibatch-size", "32", "--hidden-sizes", "32"]
# script -> (arguments shared by training and demo, the statistic that is 0 until the first update)
CASES = {
    "ppo": (["--update-interval", "100", "--minibatch-size", "50", "--epochs", "2"], "n_updates"),
    "trpo": (["--update-interval", "100", "--vf-epochs", "1"], "average_kl"),
    "td3": (OFF_POLICY, "q_func_n_updates"),
    "sac": (OFF_POLICY, "n_updates"),
    "ddpg": (OFF_POLICY, "n_updates"),
}


def _run(name, cwd, *args, prelude="pass"):
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    script = os.path.join(FOLDER, f"train_{name}_mujoco.py")
    # the script run as __main__ after ``prelude`` (its folder first on sys.path, as for a script)
    code = (f"import runpy, sys; {prelude}; sys.path.insert(0, {FOLDER!r}); sys.argv = [{script!r}] + "
            f"{list(args)!r}; runpy.run_path({script!r}, run_name='__main__')")
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600, check=False)


@pytest.mark.slow  # 1-2 s of CPU each, but several seconds of wall time on a loaded machine
@pytest.mark.parametrize("name", list(CASES))
def test_train_then_demo(name, tmp_path):
    net_args, learned_stat = CASES[name]
    proc = _run(name, tmp_path, "--steps", str(STEPS), "--eval-interval", str(STEPS), "--eval-n-runs", "2",
                "--outdir", "out", *net_args)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (run_dir,) = glob.glob(str(tmp_path / "out" / "*"))
    with open(os.path.join(run_dir, "scores.txt")) as f:
        header, *rows = [line.rstrip("\n").split("\t") for line in f]
    assert len(rows) == 1, rows
    row = dict(zip(header, rows[0]))
    assert int(row["steps"]) == STEPS and float(row[learned_stat]) != 0
    assert f"step {STEPS}: eval mean" in proc.stdout

    demo = _run(name, tmp_path, "--demo", "--load", os.path.join(run_dir, f"{STEPS}_finish"),
                "--eval-n-runs", "1", *net_args)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    assert re.search(r"n_runs: 1 mean: -?[0-9.]+ median", demo.stdout), demo.stdout


@pytest.mark.parametrize("name", list(CASES))
def test_without_mujoco_names_the_extra(name, tmp_path):
    proc = _run(name, tmp_path, prelude="sys.modules['mujoco'] = None")  # import mujoco fails
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Hopper-v5 needs MuJoCo" in proc.stderr and "kusari[mujoco]" in proc.stderr
    assert "Traceback" not in proc.stderr
