"""The distributed MNIST examples train on two ranks to >= 95% test accuracy in one epoch (slow)."""
import json
import os
import subprocess
import sys

import pytest

from tests.distributed.conftest import MPIEXEC

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def _run(name, tmp_path, shared_data, *args):
    out = tmp_path / "result"
    env = dict(os.environ, KUSARI_DOWNLOAD_MIRROR=os.path.join(shared_data, "mnist"),
               KUSARI_DATASET_ROOT=str(tmp_path / "datasets"), OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    proc = subprocess.run([MPIEXEC, "--allow-run-as-root", "--oversubscribe", "-n", "2", sys.executable,
                           os.path.join(ROOT, "examples", "distributed", name), "--epoch", "1", "--out", str(out),
                           *args], env=env, capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    with open(out / "log") as f:
        return json.load(f)


@pytest.mark.slow
def test_data_parallel_example(mpi, tmp_path, shared_data):
    log = _run("train_mnist_data_parallel.py", tmp_path, shared_data, "--communicator", "flat")
    assert [e["epoch"] for e in log] == [1] and log[-1]["iteration"] == 300   # 60,000 / (2 ranks x 100)
    assert log[-1]["validation/main/accuracy"] >= 0.95


@pytest.mark.slow
def test_model_parallel_example(mpi, tmp_path, shared_data):
    log = _run("train_mnist_model_parallel.py", tmp_path, shared_data)
    assert [e["epoch"] for e in log] == [1] and log[-1]["iteration"] == 600
    assert log[-1]["validation/main/accuracy"] >= 0.95
