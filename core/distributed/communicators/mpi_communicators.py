"""The MPI gradient exchanges: naive (one allreduce per parameter), flat and non_cuda_aware
(bucketed: gradients packed into few large allreduces), dummy (packing only, no communication)."""
import numpy

from kusari import backend
from kusari.distributed import _mpi
from kusari.distributed.communicators.communicator_base import CommunicatorBase, _host

BUCKET_BYTES = 16 * 2 ** 20
"""Gradients are packed into buffers of at most this size, one allreduce each; larger gradients are reduced
in place in slices of this size, each scaled by 1/size right after its allreduce. Measured with 2 ranks
on the loaded 2-core test machine (Open MPI 4.1, shared memory), 100 MB, medians of 8: 16 MiB slices
0.41 s, 32 and 64 MiB slices 0.53 and 0.49 s, one call then the scaling 0.47 s, the raw call alone 0.46 s."""

IN_PLACE_BYTES = 8 * 2 ** 20
"""Gradients of at least this size are reduced where they are, not copied into a bucket (packing copies
them in and out). ResNet-50's 161 gradients, 2 ranks, same machine, medians of 8: 0.71 s with this
threshold (4 gradients in place, 5 buckets), 0.86 s at 4 MiB, 1.08 s at 1 MiB, 0.77 s with every gradient
packed; the raw call on one buffer 0.59 s."""


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
    """Gradients of ``IN_PLACE_BYTES`` or more reduced in place in slices of ``BUCKET_BYTES``, the others
    packed by dtype into buckets of at most ``BUCKET_BYTES``: one allreduce per slice or bucket.

    GPU buffers go to MPI directly (this needs a CUDA-aware MPI); :class:`NonCudaAwareCommunicator`
    stages them through host memory instead.
    """

    cuda_aware = True

    def _mean_grads(self, params):
        scale = 1.0 / self.size
        for dtype, grads in self._by_dtype([p.grad for p in params]):
            in_place = [g for g in grads if g.nbytes >= IN_PLACE_BYTES and g.flags.c_contiguous
                        and not _reduce_in_float32(g)]
            chosen = {id(g) for g in in_place}
            for grad in in_place:
                flat = grad.reshape(-1)
                step = BUCKET_BYTES // flat.itemsize
                for start in range(0, flat.size, step):
                    piece = flat[start:start + step]
                    self._allreduce_sum(piece)
                    piece *= scale   # while the slice just reduced is still in cache
            for bucket in self._buckets([g for g in grads if id(g) not in chosen]):
                # scaled while packed: one pass over the gradients instead of two
                buffer = self._pack(bucket, numpy.float32 if dtype == numpy.float16 else dtype, scale=scale)
                self._allreduce_sum(buffer)
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

    def _allreduce_sum(self, buffer) -> None:
        """``buffer`` (1-D, contiguous) <- its sum over the ranks, in place."""
        MPI = _mpi.mpi()
        if backend.is_gpu_array(buffer) and not self.cuda_aware:
            host = buffer.get()
            self.mpi_comm.Allreduce(MPI.IN_PLACE, host)
            buffer.set(host)
        else:
            if backend.is_gpu_array(buffer):
                buffer.device.synchronize()  # MPI reads the buffer outside CuPy's stream
            self.mpi_comm.Allreduce(MPI.IN_PLACE, buffer)


class NonCudaAwareCommunicator(FlatCommunicator):
    """:class:`FlatCommunicator` with GPU buffers staged through host memory (any MPI)."""

    cuda_aware = False


class DummyCommunicator(FlatCommunicator):
    """Packs, scales and unpacks the gradients like ``flat`` but communicates nothing: the cost of the
    packing alone, for benchmarks (each gradient is left divided by the size: its share of a mean that
    was never summed). Other collectives work as usual."""

    def _allreduce_sum(self, buffer) -> None:
        pass
