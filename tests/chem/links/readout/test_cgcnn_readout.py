"""CGCNNReadout: the per-crystal mean through Linear and softplus, its input checks, gradient checks."""
import numpy
import pytest

import kusari
from kusari import gradient_check
from kusari.chem.links import CGCNNReadout

# crystal 0: rows 0, 1; crystal 1: rows 2, 3, 4 (a ragged object array, as cgcnn_converter gives)
ATOM_IDX = numpy.empty(2, dtype=object)
ATOM_IDX[:] = [numpy.arange(0, 2), numpy.arange(2, 5)]


def readout(dtype):
    with kusari.using_config("dtype", dtype):
        link = CGCNNReadout(out_dim=3)
        link.linear.W.initialize((3, 4))
    link.linear.b.array = numpy.random.RandomState(1).uniform(-1, 1, 3).astype(dtype)
    return link


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_math(dtype):
    h = numpy.random.RandomState(0).standard_normal((5, 4)).astype(dtype)
    link = readout(dtype)
    y = link(h, ATOM_IDX)
    pooled = numpy.stack([h[:2].mean(0), h[2:].mean(0)])
    expected = numpy.logaddexp(0, pooled @ link.linear.W.array.T + link.linear.b.array)
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    # equal-sized crystals in a 2-D int array (what NumPy makes of equal lengths) pool the same
    y_2d = link(h[:4], numpy.array([[0, 1], [2, 3]]))
    numpy.testing.assert_allclose(y_2d.array[0], y.array[0], rtol=1e-6)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_gradient_check(dtype):
    rng = numpy.random.RandomState(2)
    h = rng.standard_normal((5, 4)).astype(dtype)
    gy = rng.standard_normal((2, 3)).astype(dtype)
    ggh = rng.standard_normal((5, 4)).astype(dtype)
    link = readout(dtype)
    params = (link.linear.W, link.linear.b)
    ggparams = tuple(rng.standard_normal(p.shape).astype(dtype) for p in params)

    def f(h):
        return link(h, ATOM_IDX)

    tol = dict(atol=1e-3, rtol=1e-3, dtype=numpy.float64)
    gradient_check.check_backward(f, h, gy, params=params, **tol)
    gradient_check.check_double_backward(f, h, gy, ggh, params=params, params_grad_grad=ggparams,
                                         **tol)


def test_bad_inputs():
    link = CGCNNReadout(out_dim=3)
    h = numpy.zeros((5, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"CGCNNReadout: atom_feat must be \(n_site, n_feat\), "
                                         r"got shape \(5, 4, 1\)"):
        link(h[..., None], ATOM_IDX)
    for bad in ([numpy.arange(2), numpy.arange(0)], [numpy.arange(2), numpy.arange(4, 6)],
                [numpy.arange(2), numpy.array([2.0, 3.0])]):
        with pytest.raises(ValueError, match=r"CGCNNReadout: atom_idx\[1\] must be a non-empty "
                                             r"1-D int array of rows of atom_feat \(0 .. 4\)"):
            link(h, bad)
