"""The MPI gradient exchanges: naive (one allreduce per parameter), flat and non_cuda_aware
(bucketed: gradients packed into few large allreduces), dummy (packing only, no communication)."""
import numpy

from kusari import backend
from kusari.distributed import _mpi
from kusari.distributed.communicators.communicator_base import CommunicatorBase, _host

BUCKET_BYTES = 64 * 2 ** 20
"""Gradients are packed into buffers of about this size; one gradient at least this large is reduced
in place, unpacked (copying it would cost as much memory traffic as the allreduce saves)."""


def _reduce_in_float32(array) -> bool:
    return array.dtype == numpy.float16  # MPI has no float16 sum


class NaiveCommunicator(CommunicatorBase):
    """One in-place allreduce per gradient (GPU gradients through host memory); simple, for testing."""

    def _mean_grads(self, params):
        MPI = _mpi.mpi()
        for param in params:
            grad = param.grad
            host = _host(grad)
            work = host.astype(numpy.float32) if _reduce_in_float32(host) else host
            self.mpi_comm.Allreduce(MPI.IN_PLACE, work)
            work /= self.size
            if work is not grad:
                if backend.is_gpu_array(grad):
                    grad.set(work.astype(grad.dtype, copy=False))
                else:
                    grad[...] = work


class FlatCommunicator(CommunicatorBase):
    """Gradients packed by dtype into buckets of about ``BUCKET_BYTES``, one allreduce per bucket.

    GPU buffers go to MPI directly (this needs a CUDA-aware MPI); :class:`NonCudaAwareCommunicator`
    stages them through host memory instead.
    """

    cuda_aware = True

    def _mean_grads(self, params):
        for dtype, grads in self._by_dtype([p.grad for p in params]):
            for bucket in self._buckets(grads):
                if len(bucket) == 1 and bucket[0].nbytes >= BUCKET_BYTES and bucket[0].flags.c_contiguous \
                        and not _reduce_in_float32(bucket[0]):
                    self._allreduce_mean(bucket[0].reshape(-1))
                    continue
                buffer = self._pack(bucket, numpy.float32 if dtype == numpy.float16 else dtype)
                self._allreduce_mean(buffer)
                self._unpack(buffer, bucket)

    @staticmethod
    def _buckets(arrays):
        bucket, size = [], 0
        for a in arrays:
            if bucket and size + a.nbytes > BUCKET_BYTES:
                yield bucket
                bucket, size = [], 0
            bucket.append(a)
            size += a.nbytes
        if bucket:
            yield bucket

    def _allreduce_mean(self, buffer) -> None:
        """``buffer`` (1-D, contiguous) <- its mean over the ranks, in place."""
        MPI = _mpi.mpi()
        if backend.is_gpu_array(buffer) and not self.cuda_aware:
            host = buffer.get()
            self.mpi_comm.Allreduce(MPI.IN_PLACE, host)
            buffer.set(host)
        else:
            if backend.is_gpu_array(buffer):
                buffer.device.synchronize()  # MPI reads the buffer outside CuPy's stream
            self.mpi_comm.Allreduce(MPI.IN_PLACE, buffer)
        buffer /= self.size


class NonCudaAwareCommunicator(FlatCommunicator):
    """:class:`FlatCommunicator` with GPU buffers staged through host memory (any MPI)."""

    cuda_aware = False


class DummyCommunicator(FlatCommunicator):
    """Packs and unpacks the gradients like ``flat`` but communicates nothing: the cost of the
    packing alone, for benchmarks. Other collectives work as usual."""

    def _allreduce_mean(self, buffer) -> None:
        pass
