import json
import subprocess
import sys

import numpy
import pytest

from bench import workloads, worker
from bench.machine import REPO_ROOT
from bench.runner import Settings, worker_environment


def test_parse_overrides_groups_by_workload():
    assert worker.parse_overrides(["lstm_lm.bptt=5", "lstm_lm.batch=4", "mlp_tiny.batch=2"]) == {
        "lstm_lm": {"bptt": "5", "batch": "4"}, "mlp_tiny": {"batch": "2"}}


@pytest.mark.parametrize("item", ["lstm_lm", "bptt=5", "lstm_lm.=5", ".bptt=5"])
def test_parse_overrides_rejects_malformed_items(item):
    with pytest.raises(ValueError, match="WORKLOAD.PARAM=VALUE"):
        worker.parse_overrides([item])


def test_a_failing_workload_becomes_an_error_result(monkeypatch):
    def broken(name, framework, params):
        raise ImportError("no module named kusari.links")
    monkeypatch.setattr(workloads, "setup", broken)
    assert worker.run_workload("mlp_tiny", "kusari", {}, 0.01, 1) == {
        "error": "ImportError: no module named kusari.links"}


def test_per_op_rows_divide_by_ops_per_step(monkeypatch):
    class Found:
        median_us, samples, batch = 50.0, 3, 1
    monkeypatch.setattr(worker.timing, "measure", lambda step, **kwargs: Found)
    assert worker.run_workload("add_chain10", "kusari", {}, 0.01, 1)["us"] == 5.0


def test_numpy_blas_reads_numpy2_config():
    import numpy
    blas = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]
    assert worker._numpy_blas(numpy).startswith(blas["name"])


def test_openblas_core_names_the_kernels_of_numpys_openblas(monkeypatch):
    # The worker's NumPy is loaded, so its OpenBLAS is in /proc/self/maps; its kernels have a name.
    if "openblas" not in worker._numpy_blas(numpy).lower():
        pytest.skip("NumPy does not use OpenBLAS here")
    core = worker.openblas_core()
    assert core != "unknown" and core.isidentifier()
    assert "OpenBLAS kernels" in worker._numpy_info()


def test_worker_process_writes_a_report(tmp_path):
    out = tmp_path / "report.json"
    command = [sys.executable, "-m", "bench.worker", "--framework", "kusari", "--workloads", "add_1elem",
               "--target-s", "0.01", "--warmup", "1", "--out", str(out)]
    subprocess.run(command, cwd=REPO_ROOT, env=worker_environment(Settings()), check=True, capture_output=True,
                   timeout=120)
    report = json.loads(out.read_text())
    assert report["framework"] == "kusari"
    assert "OPENBLAS_NUM_THREADS=1" in report["info"]["threads"]
    assert report["results"]["add_1elem"]["us"] > 0


def test_kusari_info_says_whether_onednn_runs():
    from kusari import onednn
    info = worker.prepare("kusari")
    assert info["oneDNN"].startswith("3.") if onednn.available() else info["oneDNN"] == "not installed"
