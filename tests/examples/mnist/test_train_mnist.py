"""The MNIST examples train to >= 95% test accuracy offline on the shared MNIST copy (2 epochs).

The examples are not seeded (as Chainer's): a 2-epoch run of their MLP lands around 96-98% (runs measured
96.98% here and 96.34% on CI), so the bound sits below that spread; a broken trainer stays far below it."""
import json
import os
import re
import subprocess
import sys

import pytest

MIN_ACCURACY = 0.95
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def _run_example(name, tmp_path, shared_data, *args):
    env = dict(os.environ, KUSARI_DOWNLOAD_MIRROR=os.path.join(shared_data, "mnist"),
               KUSARI_DATASET_ROOT=str(tmp_path / "datasets"), MPLBACKEND="Agg")
    out = tmp_path / "result"
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "mnist", name), "--epoch", "2",
                           "--out", str(out), *args], env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out, proc.stdout


@pytest.mark.slow
def test_train_mnist(tmp_path, shared_data):
    out, stdout = _run_example("train_mnist.py", tmp_path, shared_data)
    with open(out / "log") as f:
        log = json.load(f)
    assert [e["epoch"] for e in log] == [1, 2]
    assert log[-1]["validation/main/accuracy"] >= MIN_ACCURACY
    assert "validation/main/accuracy" in stdout and "\r" not in stdout  # readable non-TTY output
    assert (out / "snapshot_iter_1200").exists()
    pytest.importorskip("matplotlib")
    from PIL import Image
    with Image.open(out / "accuracy.png") as image:
        assert image.format == "PNG" and image.size[0] > 100


@pytest.mark.slow
def test_train_mnist_custom_loop(tmp_path, shared_data):
    out, stdout = _run_example("train_mnist_custom_loop.py", tmp_path, shared_data)
    accuracies = [float(a) for a in re.findall(r"test accuracy ([0-9.]+)", stdout)]
    assert len(accuracies) == 2 and accuracies[-1] >= MIN_ACCURACY
    assert (out / "mlp.model").exists() and (out / "mlp.state").exists()
