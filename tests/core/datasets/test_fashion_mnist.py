import hashlib

import numpy
import pytest

from kusari.dataset.download import Checksum, DownloadError
from kusari.datasets import fashion_mnist, get_fashion_mnist, get_fashion_mnist_labels


@pytest.fixture
def fake_fashion(mirror, monkeypatch, idx_gz):
    """Small Fashion-MNIST files in a mirror folder, with the loader's checksums set to theirs."""
    rng = numpy.random.RandomState(0)
    arrays = {"train-images-idx3-ubyte.gz": rng.randint(0, 256, (5, 28, 28)),
              "train-labels-idx1-ubyte.gz": numpy.array([0, 9, 3, 3, 1]),
              "t10k-images-idx3-ubyte.gz": rng.randint(0, 256, (2, 28, 28)),
              "t10k-labels-idx1-ubyte.gz": numpy.array([7, 2])}
    files = {f"fashion-mnist/{name}": idx_gz(a) for name, a in arrays.items()}
    for path, data in files.items():
        monkeypatch.setitem(fashion_mnist._CHECKSUMS, path.split("/")[1],
                            Checksum(hashlib.sha256(data).hexdigest()))
    mirror(files)
    return arrays


def test_loads_the_canonical_format(dataset_root, fake_fashion):
    train, test = get_fashion_mnist()
    assert (len(train), len(test)) == (5, 2)
    x, t = train[1]
    assert x.shape == (784,) and x.dtype == numpy.float32 and t.dtype == numpy.int32 and t == 9
    numpy.testing.assert_allclose(x, fake_fashion["train-images-idx3-ubyte.gz"][1].reshape(-1) / 255.0, rtol=1e-6)
    assert [int(label) for _, label in test[0:2]] == [7, 2]


def test_shapes_scale_and_rgb(dataset_root, fake_fashion):
    train, _ = get_fashion_mnist(withlabel=False, ndim=3, scale=2.0, rgb_format=True)
    assert train.shape == (5, 3, 28, 28)
    expected = fake_fashion["train-images-idx3-ubyte.gz"] * (2.0 / 255.0)
    for channel in range(3):
        numpy.testing.assert_allclose(train[:, channel], expected, rtol=1e-6)
    train, _ = get_fashion_mnist(withlabel=False, ndim=2, dtype=numpy.float64, label_dtype=numpy.int64)
    assert train.shape == (5, 28, 28) and train.dtype == numpy.float64
    _, test = get_fashion_mnist(label_dtype=numpy.int64)
    assert test[0][1].dtype == numpy.int64


def test_canonical_checksums_are_enforced(dataset_root, mirror, idx_gz):
    mirror({"fashion-mnist/train-images-idx3-ubyte.gz": idx_gz(numpy.zeros((1, 28, 28)))})
    with pytest.raises(DownloadError) as info:
        get_fashion_mnist()
    message = str(info.value)
    assert "expected 3aede38d61863908ad78613f6a32ed271626dd12800ba2636569512369268a84" in message
    assert "http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/train-images-idx3-ubyte.gz" in message
    assert str(dataset_root / "fashion-mnist" / "train-images-idx3-ubyte.gz") in message


def test_labels():
    labels = get_fashion_mnist_labels()
    assert len(labels) == 10 and labels[0] == "T-shirt/top" and labels[9] == "Ankle boot"
    labels.append("changed")
    assert len(get_fashion_mnist_labels()) == 10
