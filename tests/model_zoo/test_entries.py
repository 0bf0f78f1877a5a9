"""The shipped zoo entries reproduce the test error their reproduction recorded, on the real MNIST test set."""
import gzip
import os

import numpy
import pytest

import kusari
import kusari.model_zoo as zoo


def _read_idx(path):
    """An IDX file of unsigned bytes, parsed here independently of kusari.datasets."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    shape = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim))
    return numpy.frombuffer(data, numpy.uint8, offset=4 + 4 * ndim).reshape(shape)


@pytest.fixture(scope="module")
def mnist_test(shared_data_folder):
    folder = shared_data_folder("mnist")
    images = _read_idx(os.path.join(folder, "t10k-images-idx3-ubyte.gz"))
    labels = _read_idx(os.path.join(folder, "t10k-labels-idx1-ubyte.gz"))
    return (images / numpy.float32(255)).astype(numpy.float32), labels


@pytest.mark.parametrize("name, shape", [("mnist-mlp", (784,)), ("lenet5-mnist", (1, 28, 28))])
def test_entry_reproduces_its_recorded_test_error(name, shape, mnist_test):
    images, labels = mnist_test
    info = zoo.info(name)
    assert info["dataset"] == "MNIST" and info["reproduction"] and info["commit"]
    model = zoo.load(name)
    predictions = []
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        for start in range(0, len(images), 2000):
            x = images[start:start + 2000].reshape((-1,) + shape)
            predictions.append(model(x).array.argmax(axis=1))
    wrong = int((numpy.concatenate(predictions) != labels).sum())
    # one example of slack for summation-order differences between BLAS builds
    assert abs(wrong - round(info["metric"]["test_error"] * len(labels))) <= 1
