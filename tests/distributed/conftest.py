"""Distributed tests launch ``mpiexec -n 2`` on worker scripts (the ``mpi`` fixture); they skip where mpiexec
or mpi4py is missing."""
import importlib.util
import os
import shutil
import subprocess
import sys
import types

import pytest

WORKERS = os.path.join(os.path.dirname(__file__), "workers")
MPIEXEC = shutil.which("mpiexec")


def launch(worker, *args, n=2, timeout=120, env=None):
    """Run ``workers/<worker>`` on ``n`` ranks; returns the CompletedProcess (output as text).

    The timeout is a safety net for the test run itself: a job that outlives it fails the test.
    """
    command = [MPIEXEC, "--allow-run-as-root", "--oversubscribe", "-n", str(n), sys.executable,
               os.path.join(WORKERS, worker), *map(str, args)]
    full_env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", PYTHONUNBUFFERED="1",
                    **(env or {}))
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=full_env)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{worker} on {n} ranks did not finish within {timeout} s: it hung\n"
                    f"stdout:\n{e.stdout}\nstderr:\n{e.stderr}")


def run_ok(worker, *args, n=2, timeout=120, env=None):
    """``launch``, asserting exit status 0 and that every rank printed ``worker ok``."""
    result = launch(worker, *args, n=n, timeout=timeout, env=env)
    assert result.returncode == 0, f"exit {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert result.stdout.count(f"{worker} ok") == n, result.stdout + result.stderr
    return result


_INSTALL = "pip install 'kusari[mpi]'; apt-get install openmpi-bin libopenmpi-dev"


@pytest.fixture
def needs_mpi4py():
    """Skips the test where mpi4py is not installed."""
    if importlib.util.find_spec("mpi4py") is None:
        pytest.skip(f"needs mpi4py ({_INSTALL})")


@pytest.fixture
def mpi(needs_mpi4py):
    """The launcher helpers ``mpi.launch(worker, ...)`` and ``mpi.run_ok(worker, ...)``; skips the test
    where mpiexec or mpi4py is missing."""
    if MPIEXEC is None:
        pytest.skip(f"needs mpiexec ({_INSTALL})")
    return types.SimpleNamespace(launch=launch, run_ok=run_ok)
