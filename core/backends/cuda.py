"""Chainer's ``chainer.backends.cuda``: CuPy helpers, with CuPy imported only when first needed.

``available`` and ``cupy`` are looked up lazily (``cupy`` is None without CuPy); ``to_cpu``,
``to_gpu``, ``get_array_module``, ``get_device_from_id(i).use()``, ``get_device_from_array``,
``copy`` and ``check_cuda_available`` behave as in Chainer.
"""
import functools

import numpy

from kusari import backend

get_array_module = backend.get_array_module
to_cpu = backend.to_cpu
GpuDevice = backend.GpuDevice


@functools.lru_cache(maxsize=None)
def _probe():
    try:
        import cupy
    except ImportError:
        return None
    try:
        if cupy.cuda.runtime.getDeviceCount() == 0:
            return None
    except Exception:    # CuPy without a driver or a GPU raises CUDARuntimeError
        return None
    return cupy


def check_cuda_available():
    """Raise a RuntimeError that says how to install CuPy when no CUDA GPU can be used."""
    if _probe() is None:
        raise RuntimeError("cuda: CUDA environment is not correctly set up (no CuPy or no GPU); "
                           "install CuPy with: pip install 'kusari[cuda12]'")


def to_gpu(array, device=None, stream=None):
    """``array`` (or a tuple/list/dict of arrays, or a Variable) sent to GPU ``device`` (default: current)."""
    if stream is not None:
        raise ValueError("cuda.to_gpu: the stream argument is not supported (Chainer deprecated it)")
    check_cuda_available()
    if device is None:
        device = _probe().cuda.Device().id
    elif not isinstance(device, (int, numpy.integer)):
        device = getattr(device, "id", getattr(device, "device_id", device))
    return backend.to_gpu(array, int(device))


class DummyDevice:
    """The host as Chainer's CUDA helpers see it: ``id`` -1, ``use()`` and ``with`` do nothing."""

    id = -1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def use(self):
        pass

    def synchronize(self):
        pass

    def __eq__(self, other):
        return isinstance(other, DummyDevice)

    def __hash__(self):
        return -1


def get_device_from_id(device_id):
    """``cupy.cuda.Device(device_id)``, or ``DummyDevice`` for None or a negative id."""
    if device_id is None or device_id < 0:
        return DummyDevice()
    check_cuda_available()
    return _probe().cuda.Device(int(device_id))


def get_device_from_array(*arrays):
    """The ``cupy.cuda.Device`` of the first CuPy array among ``arrays``, else ``DummyDevice``."""
    for a in arrays:
        a = getattr(a, "array", a)
        if backend.is_gpu_array(a):
            return a.device
    return DummyDevice()


def copy(array, out=None, out_device=None, stream=None):
    """A copy of the CuPy ``array`` on GPU ``out_device`` (default: the array's), or written into ``out``."""
    check_cuda_available()
    if out is not None:
        _probe().copyto(out, array)
        return out
    target = array.device.id if out_device is None else int(getattr(out_device, "id", out_device))
    moved = backend.to_gpu(array, target)
    return moved.copy() if moved is array else moved


def __getattr__(name):
    if name == "available":
        return _probe() is not None
    if name == "cupy":
        return _probe()
    if name == "cudnn_enabled":
        return False     # kusari's cuDNN path goes through nvidia-cudnn-frontend, queried per op
    if name == "ndarray":
        cupy = _probe()
        return cupy.ndarray if cupy is not None else type("ndarray", (), {"__doc__": "no CuPy: no GPU array"})
    raise AttributeError(f"kusari.backends.cuda has no attribute {name!r}")
