"""PureNcclCommunicator: gradients of GPU models averaged with NCCL's allreduce through CuPy."""
import numpy

from kusari.distributed.communicators.communicator_base import CommunicatorBase

_NCCL_TYPES = {"float16": "NCCL_FLOAT16", "float32": "NCCL_FLOAT32", "float64": "NCCL_FLOAT64"}


def _nccl():
    try:
        import cupy
        from cupy.cuda import nccl
    except ImportError as e:
        raise RuntimeError(
            "create_communicator('pure_nccl'): needs CuPy built with NCCL and a CUDA GPU "
            f"({type(e).__name__}: {e}); install kusari[cuda12], or use communicator_name='naive' "
            "or 'flat' on CPUs") from None
    if not getattr(nccl, "available", True) or cupy.cuda.runtime.getDeviceCount() == 0:
        raise RuntimeError("create_communicator('pure_nccl'): CuPy has no NCCL or sees no GPU; use "
                           "communicator_name='naive' or 'flat' on CPUs")
    return cupy, nccl


class PureNcclCommunicator(CommunicatorBase):
    """Gradients (on the GPU) packed into one buffer, cast to ``allreduce_grad_dtype`` (the gradients'
    dtype when None), summed with NCCL and divided by the size. Other collectives use MPI.

    Each rank must have selected its GPU before (``cupy.cuda.Device(comm.intra_rank).use()``).
    """

    def __init__(self, mpi_comm=None, timeout=None, allreduce_grad_dtype=None):
        self._cupy, self._nccl_module = _nccl()
        super().__init__(mpi_comm, timeout)
        if allreduce_grad_dtype is not None:
            allreduce_grad_dtype = numpy.dtype(allreduce_grad_dtype)
            if allreduce_grad_dtype.name not in _NCCL_TYPES:
                raise ValueError(f"create_communicator: allreduce_grad_dtype must be float16, float32 or "
                                 f"float64, got {allreduce_grad_dtype}")
        self.allreduce_grad_dtype = allreduce_grad_dtype
        self._nccl_comm = None

    def _comm(self):
        if self._nccl_comm is None:
            nccl = self._nccl_module
            uid = self.bcast_obj(nccl.get_unique_id() if self.rank == 0 else None)
            self._nccl_comm = nccl.NcclCommunicator(self.size, uid, self.rank)
        return self._nccl_comm

    def split(self, color: int, key: int):
        new = super().split(color, key)
        new._nccl_comm = None   # the new group needs its own NCCL communicator, made on first use
        return new

    def _nccl_type(self, dtype):
        return getattr(self._nccl_module, _NCCL_TYPES[numpy.dtype(dtype).name])

    def _mean_grads(self, params, stream=None):
        cupy = self._cupy
        stream = stream or cupy.cuda.get_current_stream()
        for dtype, grads in self._by_dtype([p.grad for p in params]):
            wire = self.allreduce_grad_dtype or dtype
            with stream:
                buffer = self._pack(grads, wire)
            self._comm().allReduce(buffer.data.ptr, buffer.data.ptr, buffer.size, self._nccl_type(wire),
                                   self._nccl_module.NCCL_SUM, stream.ptr)
            with stream:
                buffer /= self.size
                self._unpack(buffer, grads)

    def _bcast_buffer(self, buffer) -> None:
        stream = self._cupy.cuda.get_current_stream()
        self._comm().bcast(buffer.data.ptr, buffer.size, self._nccl_type(buffer.dtype), 0, stream.ptr)

    def finalize(self) -> None:
        super().finalize()
        if self._nccl_comm is not None:
            self._nccl_comm.destroy()
            self._nccl_comm = None
