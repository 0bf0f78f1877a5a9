import sys

import numpy
import pytest

import kusari
import kusari.links as L
from kusari import backend


def test_get_array_module_for_arrays_and_variables():
    assert backend.get_array_module(numpy.zeros(1)) is numpy
    assert backend.get_array_module(kusari.Variable(numpy.zeros(1))) is numpy
    assert backend.get_array_module() is numpy


def test_cupy_is_not_imported_by_cpu_work():
    import subprocess
    code = ("import sys, numpy, kusari, kusari.functions as F, kusari.links as L\n"
            "l = L.Linear(3, 2); y = F.sum(l(numpy.ones((1, 3), numpy.float32))); y.backward()\n"
            "print('cupy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("spec", ["@numpy", -1, None, "native", numpy.zeros(1)])
def test_get_device_cpu_specs(spec):
    device = backend.get_device(spec)
    assert device == backend.CpuDevice() and device.xp is numpy and str(device) == "@numpy"


@pytest.mark.parametrize("spec,error", [("@tpu:0", ValueError), ("@cupy:x", ValueError), (1.5, TypeError)])
def test_get_device_rejects_unknown(spec, error):
    with pytest.raises(error, match="get_device"):
        backend.get_device(spec)


def test_to_device_handles_containers_and_links():
    data = {"a": [numpy.zeros(2), (numpy.ones(1),)], "b": None}
    out = backend.to_device("@numpy", data)
    assert isinstance(out["a"][1], tuple) and out["b"] is None
    link = L.Linear(2, 3)
    assert backend.to_device("@numpy", link) is link
    assert link.device == backend.CpuDevice()


def test_numpy_scalars_are_sent_as_arrays():
    # NumPy 2 scalars have a to_device method of their own; they are data, not Variables
    out = backend.to_cpu(numpy.float16(2.5))
    assert isinstance(out, numpy.ndarray) and out.dtype == numpy.float16 and out == 2.5
    assert backend.to_device("@numpy", [numpy.int32(3)])[0] == 3


def test_using_device_on_host_is_a_noop():
    with backend.using_device("@numpy") as device:
        assert device.xp is numpy


def test_variable_to_device_moves_grad_too():
    v = kusari.Variable(numpy.ones(2, numpy.float32), grad=numpy.ones(2, numpy.float32))
    assert v.to_device("@numpy") is v and v.grad is not None


@pytest.mark.gpu
def test_gpu_round_trip_and_mixing_error():
    import cupy
    x = kusari.Variable(numpy.arange(3, dtype=numpy.float32))
    x.to_device("@cupy:0")
    assert isinstance(x.array, cupy.ndarray)
    with pytest.raises(TypeError, match="mix NumPy and CuPy"):
        x + kusari.Variable(numpy.ones(3, numpy.float32))
    x.to_device("@numpy")
    assert isinstance(x.array, numpy.ndarray)


def test_mixing_backends_is_detected_without_a_gpu(monkeypatch):
    """A stand-in ``cupy`` module exercises the mixed-backend check on machines without CuPy."""
    import types
    fake = types.ModuleType("cupy")

    class ndarray(numpy.ndarray):
        pass

    fake.ndarray = ndarray
    ndarray.__module__ = "cupy"
    monkeypatch.setitem(sys.modules, "cupy", fake)
    a = numpy.ones(2, numpy.float32)
    b = a.view(ndarray)
    with pytest.raises(TypeError, match="mix NumPy and CuPy"):
        kusari.functions.add(kusari.Variable(a), b)
