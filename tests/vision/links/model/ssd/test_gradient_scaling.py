"""GradientScaling: as an update-rule hook and as an optimizer hook."""
import numpy
import pytest

import kusari
import kusari.links as L
from kusari import optimizers
from kusari.vision.links.model.ssd import GradientScaling


def test_scales_the_gradient_before_the_update():
    link = L.Linear(2, 3)
    W0, b0 = link.W.array.copy(), link.b.array.copy()
    optimizer = optimizers.SGD(lr=0.5)
    optimizer.setup(link)
    link.b.update_rule.add_hook(GradientScaling(2))
    link.cleargrads()
    kusari.functions.sum(link(numpy.ones((1, 2), numpy.float32))).backward()
    gW, gb = link.W.grad.copy(), link.b.grad.copy()
    optimizer.update()
    numpy.testing.assert_allclose(link.W.array, W0 - 0.5 * gW)
    numpy.testing.assert_allclose(link.b.array, b0 - 0.5 * 2 * gb)


def test_optimizer_hook_and_missing_gradients():
    link = L.Linear(2, 3)
    optimizer = optimizers.SGD(lr=1)
    optimizer.setup(link)
    optimizer.add_hook(GradientScaling(0.5))
    link.cleargrads()
    link.W.grad = numpy.ones_like(link.W.array)   # b has no gradient: left alone
    W0 = link.W.array.copy()
    optimizer.update()
    numpy.testing.assert_allclose(link.W.array, W0 - 0.5)


def test_bad_rate():
    with pytest.raises(TypeError, match="GradientScaling: rate must be a real number, got str"):
        GradientScaling("2")
