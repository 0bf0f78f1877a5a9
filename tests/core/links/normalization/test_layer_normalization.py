import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L


def test_forward_lazy_and_backward(check_link_backward):
    link = L.LayerNormalization()
    x = numpy.random.default_rng(0).standard_normal((3, 5)).astype(numpy.float32) * 4
    y = link(x)
    assert link.gamma.shape == (5,) and link.eps == 1e-6
    expected = (x - x.mean(1, keepdims=True)) / numpy.sqrt(x.var(1, keepdims=True) + 1e-6)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)
    link.beta.array[...] = numpy.arange(5)
    check_link_backward(link, x, numpy.float64)


def test_scalar_input_rejected():
    with pytest.raises(ValueError, match="LayerNormalization.*x.shape=\\(3,\\)"):
        L.LayerNormalization()(numpy.zeros(3, numpy.float32))


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_empty_batch_gives_empty_output_and_zero_parameter_gradients(dtype):
    with kusari.using_config("dtype", dtype):
        link = L.LayerNormalization(5)
    y = link(numpy.zeros((0, 5), dtype))
    assert y.shape == (0, 5) and y.dtype == dtype
    F.sum(y).backward()
    numpy.testing.assert_array_equal(link.gamma.grad, numpy.zeros(5, dtype))
    numpy.testing.assert_array_equal(link.beta.grad, numpy.zeros(5, dtype))
