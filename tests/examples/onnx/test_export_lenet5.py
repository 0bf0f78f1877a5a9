"""examples/onnx/export_lenet5.py exports, quantizes and scores the zoo's LeNet-5 offline (shared MNIST copy)."""
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def test_export_lenet5(tmp_path, shared_data):
    env = dict(os.environ, KUSARI_DOWNLOAD_MIRROR=os.path.join(shared_data, "mnist"),
               KUSARI_DATASET_ROOT=str(tmp_path / "datasets"))
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "onnx", "export_lenet5.py"),
                           "--out", str(tmp_path / "out"), "--calibration", "200", "--test", "2000"],
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = dict(re.findall(r"(lenet5(?:\.int8)?\.onnx)\s+[\d.]+ KB\s+test accuracy ([\d.]+)%", proc.stdout))
    assert set(rows) == {"lenet5.onnx", "lenet5.int8.onnx"}, proc.stdout
    assert float(rows["lenet5.onnx"]) > 98.0                                  # the zoo entry's 99.1%
    assert float(rows["lenet5.onnx"]) - float(rows["lenet5.int8.onnx"]) < 0.5
    sizes = {name: os.path.getsize(tmp_path / "out" / name) for name in rows}
    assert sizes["lenet5.onnx"] > 3 * sizes["lenet5.int8.onnx"]
