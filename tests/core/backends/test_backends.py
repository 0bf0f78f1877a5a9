"""kusari.backends.cuda / intel64, kusari.cuda, get_array_types, and Device.send of containers."""
import sys

import numpy
import pytest

import kusari
from kusari import backend
from kusari.backends import cuda, intel64


def test_cuda_module_is_chainers_name_for_it():
    import kusari.cuda
    assert kusari.cuda is cuda
    assert kusari.backends.cuda is cuda
    assert cuda.get_array_module(numpy.zeros(1)) is numpy
    assert cuda.to_cpu(numpy.ones(2)).tolist() == [1.0, 1.0]


def test_cuda_without_gpu_answers_unavailable(monkeypatch):
    monkeypatch.setattr(cuda, "_probe", lambda: None)
    assert cuda.available is False
    assert cuda.cupy is None
    assert not isinstance(numpy.zeros(1), cuda.ndarray)
    with pytest.raises(RuntimeError, match="kusari\\[cuda12\\]"):
        cuda.check_cuda_available()
    with pytest.raises(RuntimeError, match="CUDA"):
        cuda.to_gpu(numpy.zeros(1))
    dummy = cuda.get_device_from_id(None)
    assert dummy.id == -1 and dummy == cuda.DummyDevice()
    with dummy:
        dummy.use()
    assert cuda.get_device_from_array(numpy.zeros(1)).id == -1


def test_cuda_attribute_error_names_the_attribute():
    with pytest.raises(AttributeError, match="no_such_helper"):
        cuda.no_such_helper


def test_intel64_is_a_cpu_stub():
    assert intel64.is_ideep_available() is False
    assert intel64.should_use_ideep(">=auto") is False
    assert intel64.inputs_all_ready((numpy.zeros((2, 2)),)) is False
    with pytest.raises(RuntimeError, match="oneDNN"):
        intel64.check_ideep_available()


def test_get_array_types_lists_numpy_and_cupy_once_imported():
    types = kusari.get_array_types()
    assert types[0] is numpy.ndarray
    cupy = sys.modules.get("cupy")
    assert types == ((numpy.ndarray,) if cupy is None else (numpy.ndarray, cupy.ndarray))


def test_send_keeps_the_structure_of_tuples_lists_and_dicts():
    device = backend.CpuDevice()
    a, b = numpy.zeros((2, 3)), numpy.ones(3)
    sent = device.send((a, [b, None], {"k": a}))
    # a tuple of arrays is not stacked into one array
    assert isinstance(sent, tuple) and len(sent) == 3
    assert sent[0] is a and isinstance(sent[1], list) and sent[1][0] is b and sent[1][1] is None
    assert sent[2]["k"] is a
    assert device.send(None) is None


def test_send_array_takes_one_array_or_scalar():
    device = backend.CpuDevice()
    assert device.send_array(numpy.float32(2)).dtype == numpy.float32
    assert device.send_array(3.0).shape == ()
    assert device.send_array("abc").dtype.kind == "U"   # as numpy.asarray (serializers send JSON text)
    assert device.send_array([1, 2]).shape == (2,)      # one array: a list is converted, not walked
    assert device.supported_array_types == (numpy.ndarray,)
    assert device.is_array_supported(numpy.zeros(1)) and not device.is_array_supported([0])
    with device.create_context():
        pass
