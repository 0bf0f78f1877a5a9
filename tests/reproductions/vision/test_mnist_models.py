"""The MNIST reproductions build the zoo architectures and an optimizer with a decaying schedule."""
import importlib

import numpy
import pytest

from kusari import optimizers
from kusari.model_zoo.models import LeNet5, MnistMLP


@pytest.mark.parametrize("module, cls, shape", [("mnist_mlp", MnistMLP, (2, 784)),
                                                 ("mnist_lenet5", LeNet5, (2, 1, 28, 28))])
def test_model_and_optimizer(module, cls, shape):
    steps = importlib.import_module(f"reproductions.vision.{module}").STEPS
    model = steps.make_model()
    assert type(model) is cls
    assert model(numpy.zeros(shape, numpy.float32)).shape == (2, 10)
    optimizer, schedule = steps.make_optimizer(1000)
    assert isinstance(optimizer, optimizers.MomentumSGD) and optimizer.momentum == 0.9
    shift, = schedule
    assert shift.compute(0) == optimizer.lr and shift.compute(500) == pytest.approx(optimizer.lr / 2)
    assert shift.compute(1000) == 0.0
