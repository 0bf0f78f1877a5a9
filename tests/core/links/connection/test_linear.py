import numpy
import pytest

import kusari
from kusari import initializers
import kusari.links as L


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_forward_matches_numpy(dtype):
    with kusari.using_config("dtype", dtype):
        link = L.Linear(3, 4)
    assert link.W.shape == (4, 3) and link.b.shape == (4,) and link.W.dtype == dtype
    link.b.array[...] = numpy.arange(4)
    x = numpy.random.default_rng(0).standard_normal((5, 3)).astype(dtype)
    y = link(x)
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, x @ link.W.array.T + numpy.arange(4), rtol=1e-5)


def test_lazy_init_and_out_size_only():
    link = L.Linear(4)
    assert link.W.array is None and link.b.shape == (4,)
    x = numpy.ones((2, 3, 5), numpy.float32)
    y = link(x)
    assert link.W.shape == (4, 15) and y.shape == (2, 4)
    link2 = L.Linear(None, 4)
    assert link2(x, n_batch_axes=2).shape == (2, 3, 4) and link2.W.shape == (4, 5)


def test_initializers_and_nobias():
    w = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    link = L.Linear(2, 3, nobias=True, initialW=w)
    assert link.b is None and [n for n, _ in link.namedparams()] == ["/W"]
    numpy.testing.assert_array_equal(link.W.array, w)
    link = L.Linear(2, 3, initialW=initializers.Constant(2.0), initial_bias=initializers.One())
    numpy.testing.assert_array_equal(link(numpy.ones((1, 2), numpy.float32)).array, [[5, 5, 5]])


def test_default_initializer_is_lecun_normal():
    numpy.random.seed(0)
    w = L.Linear(400, 300).W.array
    assert abs(w.std() * numpy.sqrt(400) - 1) < 0.02
    numpy.testing.assert_array_equal(L.Linear(400, 3).b.array, 0)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_backward(dtype, check_link_backward):
    link = L.Linear(3, 2)
    check_link_backward(link, numpy.random.default_rng(1).standard_normal((4, 3)), dtype)
