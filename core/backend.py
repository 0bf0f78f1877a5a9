"""Array backends and devices: NumPy on the host, CuPy on CUDA GPUs (imported only when used)."""
import contextlib
import sys

import numpy


def _cupy():
    """The cupy module if it was already imported by someone, else None (never imports it)."""
    return sys.modules.get("cupy")


def _import_cupy():
    try:
        import cupy
    except ImportError as e:
        raise RuntimeError(
            "a GPU device was requested but CuPy is not installed; "
            "install it with: pip install 'kusari[cuda12]'") from e
    return cupy


def is_gpu_array(x) -> bool:
    """Whether ``x`` is a CuPy array."""
    cupy = _cupy()
    return cupy is not None and isinstance(x, cupy.ndarray)


def is_array(x) -> bool:
    """Whether ``x`` is a NumPy or CuPy array (not a Variable, scalar or list)."""
    if isinstance(x, numpy.ndarray):
        return True
    return is_gpu_array(x)


def get_array_module(*args):
    """numpy or cupy, whichever the arrays (or Variables) among ``args`` live on."""
    cupy = _cupy()
    if cupy is not None:
        for a in args:
            a = getattr(a, "array", a) if not isinstance(a, (numpy.ndarray, cupy.ndarray)) else a
            if isinstance(a, cupy.ndarray):
                return cupy
    return numpy


class Device:
    """Where arrays live; ``xp`` is the array module, ``send`` moves an array here."""

    xp = numpy
    name = ""

    def send(self, x):
        raise NotImplementedError

    def use(self):
        pass

    def __eq__(self, other):
        return isinstance(other, Device) and self.name == other.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"<{type(self).__name__} {self.name}>"

    def __str__(self):
        return self.name


class CpuDevice(Device):
    """The host, with NumPy arrays (``'@numpy'``)."""

    name = "@numpy"
    xp = numpy

    def send(self, x):
        if isinstance(x, numpy.ndarray):
            return x
        if is_gpu_array(x):
            return x.get()
        return numpy.asarray(x)


class GpuDevice(Device):
    """A CUDA GPU with CuPy arrays (``'@cupy:N'``)."""

    def __init__(self, device_id: int = 0):
        self.device_id = int(device_id)
        self.name = f"@cupy:{self.device_id}"
        self.xp = _import_cupy()

    def send(self, x):
        cupy = self.xp
        if isinstance(x, cupy.ndarray) and x.device.id == self.device_id:
            return x
        with cupy.cuda.Device(self.device_id):
            return cupy.asarray(x)

    def use(self):
        self.xp.cuda.Device(self.device_id).use()


_CPU = CpuDevice()


def get_device(device_spec) -> Device:
    """A Device from ``'@numpy'``, ``'@cupy:N'``, an int (-1 host, N GPU), a Device or an array."""
    if isinstance(device_spec, Device):
        return device_spec
    if device_spec is None or isinstance(device_spec, numpy.ndarray):
        return _CPU
    if isinstance(device_spec, str):
        if device_spec in ("@numpy", "native", "native:0", "cpu"):
            return _CPU
        if device_spec.startswith("@cupy:") or device_spec.startswith("cuda:"):
            tail = device_spec.split(":", 1)[1]
            if tail.isdigit():
                return GpuDevice(int(tail))
        raise ValueError(
            f"get_device: unknown device specifier {device_spec!r}; use '@numpy' or '@cupy:N'")
    if isinstance(device_spec, (int, numpy.integer)) and not isinstance(device_spec, bool):
        return _CPU if device_spec < 0 else GpuDevice(int(device_spec))
    if is_gpu_array(device_spec):
        return GpuDevice(device_spec.device.id)
    raise TypeError(f"get_device: cannot interpret {type(device_spec).__name__} as a device")


def get_device_from_array(array) -> Device:
    """The Device that holds ``array`` (host for anything that is not a CuPy array)."""
    if is_gpu_array(array):
        return GpuDevice(array.device.id)
    return _CPU


@contextlib.contextmanager
def using_device(device_spec):
    """Make ``device_spec`` the current device within the context (a no-op on the host)."""
    device = get_device(device_spec)
    if isinstance(device, GpuDevice):
        with device.xp.cuda.Device(device.device_id):
            yield device
    else:
        yield device


def to_device(device_spec, x):
    """Send an array, Variable, Link, or a list/tuple/dict of them to ``device_spec``."""
    device = get_device(device_spec)
    if x is None:
        return None
    if isinstance(x, numpy.ndarray) or is_gpu_array(x):
        return device.send(x)
    if hasattr(x, "to_device"):  # Variables and Links move in place
        return x.to_device(device)
    if isinstance(x, (list, tuple)):
        return type(x)(to_device(device, v) for v in x)
    if isinstance(x, dict):
        return {k: to_device(device, v) for k, v in x.items()}
    return device.send(x)


def to_cpu(x):
    """Chainer's ``to_cpu``: send to the host."""
    return to_device(_CPU, x)


def to_gpu(x, device=0):
    """Chainer's ``to_gpu``: send to GPU ``device``."""
    return to_device(GpuDevice(device if isinstance(device, int) else 0), x)


def copyto(dst, src):
    """Copy ``src`` into ``dst`` across devices."""
    if is_gpu_array(dst) or is_gpu_array(src):
        cupy = _import_cupy()
        if isinstance(dst, numpy.ndarray):
            numpy.copyto(dst, cupy.asnumpy(src))
        else:
            cupy.copyto(dst, cupy.asarray(src))
    else:
        numpy.copyto(dst, src)
