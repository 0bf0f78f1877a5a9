"""The registered zoo entries; each one's file, checksum and metric come from the reproduction named in it.

The values are copied from ``reproductions/results/<reproduction>.full.json`` ("weights" record),
written by ``python -m reproductions run NAME --tier full``. A network entry names its
``architecture``; an agent or a predictor names its ``loader`` (see docs/reproductions.md).
"""
from kusari.model_zoo.registry import Entry, register

register(Entry(
    name="lenet5-mnist",
    architecture="kusari.model_zoo.models:LeNet5",
    params={"n_class": 10},
    file="lenet5-mnist.npz",
    sha256="56eb28a77c6161af8b6823059b40d823fddb85f17303111b55d7f089da153c19",
    dataset="MNIST",
    metric={"test_error": 0.0088},
    reproduction="vision/mnist_lenet5 (full tier, seed 0)",
    commit="0205f30ed67521b46db86ad0ee7de8bbcc82b980+dirty",
))

register(Entry(
    name="mnist-mlp",
    architecture="kusari.model_zoo.models:MnistMLP",
    params={"n_in": 784, "n_units": 800, "n_out": 10},
    file="mnist-mlp.npz",
    sha256="9663b2eff39c96aea277ff91054532751dc44ee0bf07d7811afad7a535b36e9c",
    dataset="MNIST",
    metric={"test_error": 0.0172},
    reproduction="vision/mnist_mlp (full tier, seed 0)",
    commit="f87b2efb6fcd0db89f1669b05dcd1a135016e213+dirty",
))
