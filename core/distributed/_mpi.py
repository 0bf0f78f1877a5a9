"""Lazy access to mpi4py's MPI module, and whether this process was started by an MPI launcher."""
import os
import sys

# Set by Open MPI's mpiexec (OMPI_*), PMIx launchers and MPICH's Hydra (PMI_*) in every rank they start.
_LAUNCHER_VARIABLES = ("OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK")
_warned_single = False


def mpi():
    """The ``mpi4py.MPI`` module, imported (and MPI initialized) on first use."""
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise ImportError(
            "kusari.distributed needs mpi4py and an MPI library: pip install 'kusari[mpi]' "
            "(on Debian first: apt-get install openmpi-bin libopenmpi-dev)") from e
    return MPI


def launched() -> bool:
    """Whether an MPI launcher (mpiexec, mpirun, srun with PMI) started this process."""
    return any(name in os.environ for name in _LAUNCHER_VARIABLES)


def warn_if_not_launched(what: str) -> None:
    """Say once, on stderr, that a script run without a launcher is a single rank."""
    global _warned_single
    if not launched() and not _warned_single:
        _warned_single = True
        print(f"kusari.distributed: {what}: this process was not started by mpiexec (none of "
              f"{', '.join(_LAUNCHER_VARIABLES)} is set), so it runs as a single rank (size 1); "
              "start N ranks with: mpiexec -n N python script.py", file=sys.stderr, flush=True)
