"""Normalize: the closed form, its gradients (float32 and float64), its parameter and bad input."""
import numpy
import pytest

import kusari
from kusari import gradient_check, initializers
from kusari.vision.links.model.ssd import Normalize


def test_forward_is_the_scaled_unit_vector():
    rng = numpy.random.RandomState(0)
    x = rng.standard_normal((2, 5, 3, 4)).astype(numpy.float32)
    link = Normalize(5, initial=numpy.arange(1, 6, dtype=numpy.float32), eps=1e-5)
    y = link(x)
    expected = x / (numpy.sqrt((x.astype(numpy.float64) ** 2).sum(axis=1, keepdims=True)) + 1e-5)
    expected *= numpy.arange(1, 6).reshape(1, 5, 1, 1)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


def test_initial_scale():
    assert (Normalize(4).scale.array == 0).all()
    assert (Normalize(4, initial=initializers.Constant(20)).scale.array == 20).all()
    assert Normalize(3).scale.shape == (3,)
    saved = {}
    kusari.serializers.DictionarySerializer(saved).save(Normalize(3))
    assert list(saved) == ["scale"]


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_gradient(dtype):
    rng = numpy.random.RandomState(1)
    link = Normalize(3, initial=rng.uniform(0.5, 2, 3).astype(dtype))
    x = (rng.uniform(0.5, 1.5, (2, 3, 2, 2)) * rng.choice([-1, 1], (2, 3, 2, 2))).astype(dtype)
    gy = rng.standard_normal(x.shape).astype(dtype)
    tol = {"atol": 1e-3, "rtol": 1e-2} if dtype == numpy.float32 else {"atol": 1e-7, "rtol": 1e-6}
    gradient_check.check_backward(link, x, gy, params=(link.scale,),
                                  eps=1e-3 if dtype == numpy.float32 else 1e-6, **tol)
    ggx = rng.standard_normal(x.shape).astype(dtype)
    gradient_check.check_double_backward(link, x, gy, ggx, eps=1e-3 if dtype == numpy.float32 else 1e-6, **tol)


def test_bad_input():
    with pytest.raises(ValueError, match=r"Normalize: x must have shape \(N, 4, H, W\), got x.shape=\(2, 3, 5, 5\)"):
        Normalize(4)(numpy.zeros((2, 3, 5, 5), numpy.float32))
