import numpy
import pytest

from kusari import backend
from kusari.dataset import Converter, concat_examples, converter, to_device


def test_arrays_are_stacked_on_a_new_axis():
    batch = [numpy.full((2, 3), i, dtype=numpy.float32) for i in range(4)]
    out = concat_examples(batch)
    assert out.shape == (4, 2, 3) and out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out[:, 0, 0], [0, 1, 2, 3])


def test_tuples_give_a_tuple_of_arrays():
    batch = [(numpy.array([i, i + 1], dtype=numpy.float32), numpy.int32(i)) for i in range(3)]
    x, t = concat_examples(batch)
    numpy.testing.assert_array_equal(x, [[0, 1], [1, 2], [2, 3]])
    assert x.dtype == numpy.float32 and t.dtype == numpy.int32
    numpy.testing.assert_array_equal(t, [0, 1, 2])


def test_dicts_give_a_dict_of_arrays():
    batch = [{"x": numpy.array([i], dtype=numpy.float16), "t": i} for i in range(2)]
    out = concat_examples(batch)
    assert sorted(out) == ["t", "x"] and out["x"].dtype == numpy.float16
    numpy.testing.assert_array_equal(out["x"], [[0], [1]])
    numpy.testing.assert_array_equal(out["t"], [0, 1])


def test_python_numbers_and_lists():
    numpy.testing.assert_array_equal(concat_examples([[1, 2], [3, 4]]), [[1, 2], [3, 4]])
    x, t = concat_examples([([1.5, 2.0], 0), ([3.0, 4.0], 1)])
    numpy.testing.assert_array_equal(x, [[1.5, 2.0], [3.0, 4.0]])
    numpy.testing.assert_array_equal(t, [0, 1])


def test_padding_with_a_scalar():
    batch = [(numpy.array([1, 2]), 0), (numpy.array([3]), 1), (numpy.array([], dtype=int), 2)]
    x, t = concat_examples(batch, padding=100)
    numpy.testing.assert_array_equal(x, [[1, 2], [3, 100], [100, 100]])
    numpy.testing.assert_array_equal(t, [0, 1, 2])


def test_padding_two_dimensional_arrays():
    a = numpy.ones((2, 1), dtype=numpy.float32)
    b = numpy.full((1, 3), 2, dtype=numpy.float32)
    out = concat_examples([a, b], padding=-1)
    expected = numpy.array([[[1, -1, -1], [1, -1, -1]], [[2, 2, 2], [-1, -1, -1]]], dtype=numpy.float32)
    numpy.testing.assert_array_equal(out, expected)
    assert out.dtype == numpy.float32


def test_padding_per_position_and_per_key():
    batch = [(numpy.array([1, 2]), numpy.array([0])), (numpy.array([3]), numpy.array([], dtype=int))]
    x, t = concat_examples(batch, padding=(100, 200))
    numpy.testing.assert_array_equal(x, [[1, 2], [3, 100]])
    numpy.testing.assert_array_equal(t, [[0], [200]])
    batch = [{"a": numpy.array([1]), "b": numpy.array([1, 2])}, {"a": numpy.array([1, 2]), "b": numpy.array([1])}]
    out = concat_examples(batch, padding={"a": -1, "b": -2})
    numpy.testing.assert_array_equal(out["a"], [[1, -1], [1, 2]])
    numpy.testing.assert_array_equal(out["b"], [[1, 2], [1, -2]])


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="concat_examples: the batch is empty"):
        concat_examples([])
    with pytest.raises(ValueError, match=r"arrays at 0 have different shapes \[\(1,\), \(2,\)\]; pass padding="):
        concat_examples([(numpy.zeros(2), 0), (numpy.zeros(1), 1)])
    with pytest.raises(ValueError,
                       match=r"cannot pad arrays of different ndim together \(shapes \[\(2,\), \(1, 2\)\]\)"):
        concat_examples([numpy.zeros(2), numpy.zeros((1, 2))], padding=0)
    with pytest.raises(ValueError, match="padding has 3 entries but examples are tuples of 2"):
        concat_examples([(1, 2)], padding=(0, 0, 0))


def test_device_argument():
    x = numpy.arange(3, dtype=numpy.float32)
    out = concat_examples([x, x], device=-1)
    assert isinstance(out, numpy.ndarray)
    out = concat_examples([x, x], "@numpy")
    assert isinstance(out, numpy.ndarray)


def test_to_device():
    x = numpy.arange(3)
    assert to_device(None, x) is x
    assert to_device(-1, x) is x
    assert to_device(backend.CpuDevice(), x) is x
    assert to_device("@numpy", [x])[0] is x
    with pytest.raises(ValueError, match="unknown device specifier 'tpu'"):
        to_device("tpu", x)


def test_converter_decorator_passes_a_device():
    seen = []

    @converter()
    def conv(batch, device):
        seen.append(device)
        return batch

    assert isinstance(conv, Converter) and conv.__name__ == "conv"
    conv([1], -1)
    conv([1], device="@numpy")
    conv([1], None)
    assert seen == [backend.CpuDevice(), backend.CpuDevice(), None]
    assert isinstance(concat_examples, Converter)
    with pytest.raises(TypeError, match="converter: can only wrap a callable, got int"):
        converter()(3)


@pytest.mark.gpu
def test_concat_examples_to_gpu():
    import cupy
    x = numpy.arange(4, dtype=numpy.float32).reshape(2, 2)
    out_x, out_t = concat_examples([(x, 0), (x, 1)], device="@cupy:0")
    assert isinstance(out_x, cupy.ndarray) and out_x.dtype == numpy.float32
    numpy.testing.assert_array_equal(cupy.asnumpy(out_t), [0, 1])
    padded = concat_examples([cupy.arange(2), cupy.arange(1)], padding=-1)
    assert isinstance(padded, cupy.ndarray)
    numpy.testing.assert_array_equal(cupy.asnumpy(padded), [[0, 1], [0, -1]])
    back = concat_examples([cupy.ones(2, dtype=cupy.float32)] * 2, device=-1)
    assert isinstance(back, numpy.ndarray) and back.dtype == numpy.float32
