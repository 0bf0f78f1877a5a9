"""tools/gpu_check.sh on the CPU: its dry run installs the carried wheels and lists the stages in order;
without a GPU it fails at once, naming why."""
import importlib.util
import os
import subprocess
import sys
import time
import zipfile

import pytest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "gpu_check.sh")
STAGES = ["kernels", "functions", "optimizers", "static_graph", "mixed16", "training", "rest", "bench"]


def _tiny_wheel(folder):
    """A minimal valid wheel of a package ``gpu_check_probe`` (what pip needs: METADATA, WHEEL, RECORD)."""
    path = folder / "gpu_check_probe-1.0-py3-none-any.whl"
    info = "gpu_check_probe-1.0.dist-info"
    files = {"gpu_check_probe/__init__.py": "VALUE = 42\n",
             f"{info}/METADATA": "Metadata-Version: 2.1\nName: gpu-check-probe\nVersion: 1.0\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    files[f"{info}/RECORD"] = "".join(f"{name},,\n" for name in files) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return path


def _run(args, tmp_path, wheels):
    env = dict(os.environ, PYTHON=sys.executable, KUSARI_WHEELS=str(wheels),
               GPU_CHECK_SITE=str(tmp_path / "site"), OUT=str(tmp_path / "out"))
    return subprocess.run(["bash", SCRIPT, *args], env=env, capture_output=True, text=True, timeout=300)


def test_dry_run_installs_the_wheels_and_lists_the_stages_most_important_first(tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    _tiny_wheel(wheels)
    run = _run(["--dry-run", "-x"], tmp_path, wheels)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "installing 1 wheel(s)" in run.stdout and "gpu_check_probe-1.0-py3-none-any.whl" in run.stdout
    assert (tmp_path / "site" / "gpu_check_probe" / "__init__.py").read_text() == "VALUE = 42\n"
    listed = [line.split()[1] for line in run.stdout.splitlines() if line.startswith("gpu_check:   ")]
    assert listed == STAGES
    kernels = next(line for line in run.stdout.splitlines() if line.startswith("gpu_check:   kernels"))
    assert "-m pytest -m gpu" in kernels and "tests/core/test_cuda_kernels.py tests/core/cudnn" in kernels
    assert kernels.endswith(" -x")     # extra arguments reach every pytest stage
    lines = {line.split()[1]: line for line in run.stdout.splitlines() if line.startswith("gpu_check:   ")}
    assert "tests/core/test_cuda_graph_gpu.py" in lines["static_graph"].split()
    assert "--ignore=tests/core/test_cuda_graph_gpu.py" in lines["rest"].split()
    assert lines["bench"].endswith("-u -m bench.gpu --budget-s 90")      # the GPU benchmarks, not pytest
    budgets = [int(line.split("(")[1].split("s)")[0]) for line in run.stdout.splitlines()
               if line.startswith("gpu_check:   ")]
    assert sum(budgets) <= 420          # the 8-minute budget, with room for the installs
    assert os.listdir(tmp_path / "out") == ["gpu_check.log"]


def test_a_broken_wheel_stops_the_check_with_the_log_named(tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    (wheels / "broken-1.0-py3-none-any.whl").write_bytes(b"not a zip")
    run = _run(["--dry-run"], tmp_path, wheels)
    assert run.returncode == 1 and "FAILED: pip could not install the wheels" in run.stdout


@pytest.mark.skipif(importlib.util.find_spec("cupy") is not None,
                    reason="CuPy is installed: the check would run the GPU suite")
def test_without_a_gpu_the_check_fails_fast_and_says_why(tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    start = time.monotonic()
    run = _run([], tmp_path, wheels)
    assert run.returncode == 2
    assert "gpu_check: no usable GPU: ModuleNotFoundError" in run.stdout
    assert "this check needs CuPy and a CUDA GPU" in run.stdout
    assert time.monotonic() - start < 30
