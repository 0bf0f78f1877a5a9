import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L


def test_forward_lazy_and_backward(check_link_backward):
    link = L.GroupNormalization(2)
    x = numpy.random.default_rng(0).standard_normal((3, 4, 5)).astype(numpy.float32)
    y = link(x)
    assert link.gamma.shape == (4,) and link.beta.shape == (4,)
    g = x.reshape(3, 2, 10)
    expected = ((g - g.mean(2, keepdims=True)) / numpy.sqrt(g.var(2, keepdims=True) + 1e-5)).reshape(x.shape)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)
    link.gamma.array[...] = [1, 2, 0.5, 1]
    check_link_backward(link, x, numpy.float64)


def test_initial_values():
    link = L.GroupNormalization(1, size=2, initial_gamma=2.0, initial_beta=3.0)
    numpy.testing.assert_array_equal(link.gamma.array, 2)
    numpy.testing.assert_array_equal(link.beta.array, 3)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_empty_batch_gives_empty_output_and_zero_parameter_gradients(dtype):
    with kusari.using_config("dtype", dtype):
        link = L.GroupNormalization(2, size=4)
    y = link(numpy.zeros((0, 4, 5), dtype))
    assert y.shape == (0, 4, 5) and y.dtype == dtype
    F.sum(y).backward()
    numpy.testing.assert_array_equal(link.gamma.grad, numpy.zeros(4, dtype))
    numpy.testing.assert_array_equal(link.beta.grad, numpy.zeros(4, dtype))


@pytest.mark.parametrize("dtype,want", [(numpy.float16, numpy.float16), (numpy.float64, numpy.float64),
                                        (kusari.mixed16, numpy.float32)])
def test_parameters_take_config_dtype_when_made(dtype, want):
    gamma = numpy.random.RandomState(0).uniform(-1, 1, 3).astype(numpy.float32)
    with kusari.using_config("dtype", dtype):
        link = L.GroupNormalization(3, initial_gamma=gamma)
    link(numpy.zeros((1, 3, 2), numpy.float16))  # made at the first call, outside the config
    assert link.gamma.dtype == link.beta.dtype == want
    numpy.testing.assert_array_equal(link.gamma.array, gamma.astype(want))
