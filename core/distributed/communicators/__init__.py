"""create_communicator: ChainerMN's communicators on mpi4py (CPU and GPU) and NCCL (GPU)."""
from kusari.distributed import _mpi
from kusari.distributed import global_except_hook
from kusari.distributed.communicators.communicator_base import CollectiveTimeoutError, CommunicatorBase  # NOQA

_NAMES = ("pure_nccl", "naive", "flat", "non_cuda_aware", "dummy")


def create_communicator(communicator_name: str = "pure_nccl", mpi_comm=None, allreduce_grad_dtype=None,
                        batched_copy: bool = True, *, timeout: float | None = None,
                        abort_on_exception: bool | None = None) -> CommunicatorBase:
    """A communicator over ``mpi_comm`` (``MPI.COMM_WORLD`` when None).

    Parameters
    ----------
    communicator_name : str
        'pure_nccl' (GPU, NCCL), 'flat' (bucketed MPI allreduce, CUDA-aware MPI for GPU arrays),
        'non_cuda_aware' (bucketed, GPU buffers through host memory), 'naive' (one allreduce per
        parameter; CPU or GPU) or 'dummy' (no gradient communication, for benchmarks).
    mpi_comm : mpi4py.MPI.Comm, optional
    allreduce_grad_dtype : dtype, optional
        the dtype gradients travel in (pure_nccl only): float16 halves the bytes.
    batched_copy : bool
        accepted for ChainerMN compatibility (packing is always batched).
    timeout : float, optional
        seconds each collective waits for the other ranks before every waiting rank raises
        :class:`CollectiveTimeoutError` naming the missing ranks (None: wait forever).
    abort_on_exception : bool, optional
        install :mod:`kusari.distributed.global_except_hook` (an uncaught exception on any rank aborts
        the job) when the job has several ranks; None follows ``KUSARI_DISTRIBUTED_ABORT_ON_EXCEPTION``
        (on unless it is 0).
    """
    if communicator_name not in _NAMES:
        raise ValueError(f"create_communicator: unknown communicator_name {communicator_name!r}; "
                         f"choose one of {', '.join(map(repr, _NAMES))}")
    if allreduce_grad_dtype is not None and communicator_name != "pure_nccl":
        raise ValueError(f"create_communicator: allreduce_grad_dtype is only available with 'pure_nccl', "
                         f"not {communicator_name!r}")
    if timeout is not None and not timeout > 0:
        raise ValueError(f"create_communicator: timeout must be positive seconds or None, got {timeout!r}")
    if communicator_name == "pure_nccl":
        from kusari.distributed.communicators.pure_nccl_communicator import PureNcclCommunicator
        comm = PureNcclCommunicator(mpi_comm, timeout, allreduce_grad_dtype)
    else:
        from kusari.distributed.communicators import mpi_communicators as m
        cls = {"naive": m.NaiveCommunicator, "flat": m.FlatCommunicator,
               "non_cuda_aware": m.NonCudaAwareCommunicator, "dummy": m.DummyCommunicator}[communicator_name]
        comm = cls(mpi_comm, timeout)
    if mpi_comm is None:
        _mpi.warn_if_not_launched("create_communicator")
    if abort_on_exception is None:
        abort_on_exception = global_except_hook.enabled_by_environment()
    if abort_on_exception and _mpi.mpi().COMM_WORLD.size > 1:
        global_except_hook.add_hook()
    return comm
