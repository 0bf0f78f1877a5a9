"""A run killed with SIGKILL and resumed by snapshot(autoload=True) ends bit for bit like an uninterrupted one."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy

SCRIPT = os.path.join(os.path.dirname(__file__), "resume_script.py")


def _run(out, *args):
    subprocess.run([sys.executable, SCRIPT, str(out), *args], check=True, timeout=120)


def _log_without_time(out):
    with open(out / "log") as f:
        return [{k: v for k, v in entry.items() if k != "elapsed_time"} for entry in json.load(f)]


def test_sigkill_then_autoload_matches_uninterrupted(tmp_path):
    reference, resumed = tmp_path / "reference", tmp_path / "resumed"
    _run(reference)

    proc = subprocess.Popen([sys.executable, SCRIPT, str(resumed), "--slow"])
    deadline = time.monotonic() + 60
    while not (resumed / "snapshot_iter_14").exists():
        assert proc.poll() is None, "the slow run ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert not (resumed / "final.npz").exists()

    _run(resumed)
    for name in ("final.npz", "final_model.npz"):
        with numpy.load(reference / name) as a, numpy.load(resumed / name) as b:
            assert sorted(a.files) == sorted(b.files)
            if name == "final.npz":
                assert any(k.endswith("/v") for k in a.files)  # the momentum state is compared too
            for key in a.files:
                numpy.testing.assert_array_equal(a[key], b[key], err_msg=key)
    assert _log_without_time(reference) == _log_without_time(resumed)
    assert len(_log_without_time(reference)) == 13
