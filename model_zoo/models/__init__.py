"""Architectures with zoo weights, each accepting ``pretrained_model=``."""
from kusari.model_zoo.models.mnist_mlp import MnistMLP  # NOQA
from kusari.model_zoo.models.lenet5 import LeNet5  # NOQA
