"""Multi-node extensions on two ranks: per-rank checkpoints (resumed at their size, refused at
another), AllreducePersistent, ObservationAggregator, MultiNodeEarlyStoppingTrigger."""
import os
import subprocess
import sys

from tests.distributed.conftest import WORKERS


def test_checkpointer_persistents_aggregation_and_early_stopping(mpi, tmp_path):
    mpi.run_ok("w_extensions.py", tmp_path, "run")
    # one rank, without mpiexec: the 2-rank checkpoints are refused with the reason
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX", "PMI_"))}
    out = subprocess.run([sys.executable, os.path.join(WORKERS, "w_extensions.py"), str(tmp_path), "other_size"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0 and "w_extensions.py ok" in out.stdout, out.stdout + out.stderr
