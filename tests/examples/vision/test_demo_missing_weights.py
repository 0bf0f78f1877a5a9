"""examples/vision's demos given weights that are not there: a one-line message naming the demo and the
file, exit status 1, no traceback (the weights are checked before the image is read)."""
import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("cv2")
pytest.importorskip("matplotlib")

DEMOS = sorted((pathlib.Path(__file__).resolve().parents[3] / "examples" / "vision").glob("demo_*.py"))


@pytest.mark.parametrize("script", DEMOS, ids=lambda p: p.name)
def test_missing_weight_file_is_a_message(script, tmp_path):
    missing = str(tmp_path / "missing.npz")
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, str(script), "--pretrained-model", missing, "--out",
                           str(tmp_path / "out.png"), str(tmp_path / "photo.jpg")],
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert proc.stderr.startswith(script.stem) and missing in proc.stderr
    assert not (tmp_path / "out.png").exists()
