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
    if type(x) is numpy.ndarray:   # the CPU's every call: no module lookup
        return False
    cupy = _cupy()
    return cupy is not None and isinstance(x, cupy.ndarray)


def is_array(x) -> bool:
    """Whether ``x`` is a NumPy or CuPy array (not a Variable, scalar or list)."""
    if isinstance(x, numpy.ndarray):
        return True
    return is_gpu_array(x)


def get_array_types() -> tuple:
    """The array types kusari handles: ``(numpy.ndarray,)``, plus ``cupy.ndarray`` once CuPy is imported."""
    cupy = _cupy()
    return (numpy.ndarray,) if cupy is None else (numpy.ndarray, cupy.ndarray)


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
    """Where arrays live; ``xp`` is the array module, ``send`` moves arrays here."""

    xp = numpy
    name = ""
    supported_array_types = ()

    def send(self, arrays):
        """An array, or a tuple, list or dict of them (nested, None kept), sent here in the same structure."""
        if arrays is None:
            return None
        if isinstance(arrays, (tuple, list)):
            return type(arrays)(self.send(a) for a in arrays)
        if isinstance(arrays, dict):
            return {k: self.send(a) for k, a in arrays.items()}
        return self.send_array(arrays)

    def send_array(self, array):
        """One array sent here; anything else is converted as ``xp.asarray`` does (a scalar, a string)."""
        raise NotImplementedError

    def is_array_supported(self, array) -> bool:
        """Whether ``array`` is an array of this device's type (and, for a GPU, on this GPU)."""
        return isinstance(array, self.supported_array_types)

    def use(self):
        pass

    def create_context(self):
        """A context manager that makes this device current (Chainer's ``with device.create_context():``)."""
        return using_device(self)

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
    supported_array_types = (numpy.ndarray,)

    def send_array(self, array):
        if isinstance(array, numpy.ndarray):
            return array
        if is_gpu_array(array):
            return array.get()
        return numpy.asarray(array)

    @staticmethod
    def from_array(array):
        """The host device when ``array`` is a NumPy array, else None."""
        return _CPU if isinstance(array, numpy.ndarray) else None


class GpuDevice(Device):
    """A CUDA GPU with CuPy arrays (``'@cupy:N'``)."""

    def __init__(self, device_id: int = 0):
        self.device_id = int(device_id)
        self.name = f"@cupy:{self.device_id}"
        self.xp = _import_cupy()

    @property
    def supported_array_types(self):
        return (self.xp.ndarray,)

    @property
    def device(self):
        """CuPy's ``cupy.cuda.Device`` of this GPU."""
        return self.xp.cuda.Device(self.device_id)

    @classmethod
    def from_device_id(cls, device_id: int) -> "GpuDevice":
        return cls(device_id)

    @staticmethod
    def from_array(array):
        """The GPU that holds ``array`` when it is a CuPy array, else None."""
        return GpuDevice(array.device.id) if is_gpu_array(array) else None

    def is_array_supported(self, array) -> bool:
        return isinstance(array, self.xp.ndarray) and array.device.id == self.device_id

    def send_array(self, array):
        cupy = self.xp
        if isinstance(array, cupy.ndarray) and array.device.id == self.device_id:
            return array
        with cupy.cuda.Device(self.device_id):
            return cupy.asarray(array)

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
    # a NumPy scalar is data too (NumPy 2 gives it a to_device method of its own)
    if isinstance(x, (numpy.ndarray, numpy.generic)) or is_gpu_array(x):
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
