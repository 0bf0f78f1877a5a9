"""examples/rl/atari: each script trains on Pong for a few hundred steps (small buffers, short
games), evaluates, saves, and demos the saved agent; bad ids and zoo names end the script with
their message. Skipped without ale-py, the [atari] extra."""
import glob
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("ale_py", reason="the Atari examples need ale-py: pip install 'kusari[atari]'")
pytest.importorskip("cv2", reason="the Atari examples need OpenCV: pip install 'kusari[atari]'")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
STEPS = 240  # a multiple of the batch scripts' 2 envs
# 400 frames: episodes of at most 100 steps, so the evaluation and the demo end quickly
SHORT = ["--max-frames", "400", "--eval-n-runs", "1"]
OFF_POLICY = ["--replay-start-size", "200", "--update-interval", "20"]
# script -> (arguments shared by training and demo, the statistic that is 0 until the first update)
CASES = {
    "dqn": (OFF_POLICY + ["--target-update-interval", "100"], "n_updates"),
    "iqn": (OFF_POLICY + ["--quantile-thresholds-N", "8", "--quantile-thresholds-N-prime", "8",
                          "--quantile-thresholds-K", "8"], "n_updates"),
    "rainbow": (OFF_POLICY, "n_updates"),
    "a2c": (["--num-envs", "2"], "average_value"),
    "ppo": (["--num-envs", "2", "--update-interval", "64", "--minibatch-size", "32", "--epochs", "1"],
            "n_updates"),
}


def _run(name, cwd, *args):
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    script = os.path.join(ROOT, "examples", "rl", "atari", f"train_{name}_ale.py")
    return subprocess.run([sys.executable, script, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600, check=False)


@pytest.mark.slow  # 5-11 s of CPU each: Nature-sized networks on 84x84x4 inputs
@pytest.mark.parametrize("name", list(CASES))
def test_train_then_demo(name, tmp_path):
    net_args, learned_stat = CASES[name]
    proc = _run(name, tmp_path, "--steps", str(STEPS), "--eval-interval", str(STEPS), "--outdir", "out",
                *SHORT, *net_args)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (run_dir,) = glob.glob(str(tmp_path / "out" / "*"))
    with open(os.path.join(run_dir, "scores.txt")) as f:
        header, *rows = [line.rstrip("\n").split("\t") for line in f]
    assert len(rows) == 1, rows
    row = dict(zip(header, rows[0]))
    assert int(row["steps"]) == STEPS and float(row[learned_stat]) != 0
    assert -21 <= float(row["mean"]) <= 21  # a Pong score: the evaluation played unclipped games
    assert f"step {STEPS}: eval mean" in proc.stdout

    demo = _run(name, tmp_path, "--demo", "--load", os.path.join(run_dir, f"{STEPS}_finish"),
                *SHORT, *net_args)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    assert re.search(r"n_runs: 1 mean: -?[0-9.]+ median", demo.stdout), demo.stdout


@pytest.mark.parametrize("name", ["dqn", "ppo"])
def test_unknown_atari_id_lists_close_names(name, tmp_path):
    proc = _run(name, tmp_path, "--env", "ALE/Pongg-v5", "--num-envs", "2") if name == "ppo" else \
        _run(name, tmp_path, "--env", "ALE/Pongg-v5")
    assert proc.returncode != 0
    assert "no environment 'ALE/Pongg-v5'" in proc.stderr and "ALE/Pong-v5" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_load_pretrained_unknown_name_exits_2(tmp_path):
    proc = _run("iqn", tmp_path, "--load-pretrained", "unknown-name")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "'unknown-name'" in proc.stderr and not (tmp_path / "results").exists()
