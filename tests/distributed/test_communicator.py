"""Communicators: collectives on two ranks, a single rank without mpiexec, bad names and arguments."""
import os
import subprocess
import sys

import pytest

import kusari.distributed as chainermn
from tests.distributed.conftest import WORKERS


def test_collectives_gradients_and_errors_on_two_ranks(mpi):
    mpi.run_ok("w_communicator.py", "naive", "flat", "non_cuda_aware", "dummy")


def test_import_does_not_initialize_mpi():
    code = "import sys, kusari.distributed; print('mpi4py.MPI' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_without_mpiexec_runs_as_one_rank_and_says_so(needs_mpi4py):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX", "PMI_"))}
    out = subprocess.run([sys.executable, os.path.join(WORKERS, "w_single.py")], capture_output=True,
                         text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert "w_single.py ok" in out.stdout
    assert "not started by mpiexec" in out.stderr and "single rank" in out.stderr


@pytest.mark.parametrize("kwargs, fragment", [
    ({"communicator_name": "ring"}, "unknown communicator_name 'ring'"),
    ({"communicator_name": "naive", "allreduce_grad_dtype": "float16"}, "only available with 'pure_nccl'"),
    ({"communicator_name": "naive", "timeout": 0}, "timeout must be positive"),
])
def test_bad_arguments_are_refused_before_any_communication(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        chainermn.create_communicator(**kwargs)
