"""GPU communicators on two ranks (gpu-marked: skipped without CuPy and a GPU; pure_nccl needs two GPUs)."""
import pytest


def _gpus():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


@pytest.mark.gpu
def test_gpu_arrays_through_mpi_communicators(mpi):
    mpi.run_ok("w_gpu.py", "mpi", timeout=300)


@pytest.mark.gpu
def test_pure_nccl_float16_and_double_buffering(mpi):
    if _gpus() < 2:
        pytest.skip("pure_nccl needs one GPU per rank (two GPUs)")
    mpi.run_ok("w_gpu.py", "nccl", timeout=300)


def test_pure_nccl_without_cupy_says_what_to_do():
    try:
        import cupy  # noqa: F401
        pytest.skip("CuPy is installed")
    except ImportError:
        pass
    import kusari.distributed as chainermn
    with pytest.raises(RuntimeError, match="needs CuPy built with NCCL"):
        chainermn.create_communicator("pure_nccl")
