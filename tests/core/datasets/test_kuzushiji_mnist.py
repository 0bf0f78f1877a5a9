import hashlib

import numpy
import pytest

from kusari.dataset.download import Checksum
from kusari.datasets import get_kuzushiji_mnist, get_kuzushiji_mnist_labels, kuzushiji_mnist

IMAGES = numpy.arange(3 * 28 * 28).reshape(3, 28, 28) % 256


@pytest.fixture
def serve(mirror, monkeypatch, idx_gz):
    """``serve(train_labels=..., train_images=...)`` puts small KMNIST files in a mirror folder
    (``train_images``: the file's bytes, by default IMAGES)."""
    def put(train_labels=numpy.arange(3), train_images=None):
        files = {"train-images-idx3-ubyte.gz": idx_gz(IMAGES) if train_images is None else train_images,
                 "train-labels-idx1-ubyte.gz": idx_gz(train_labels),
                 "t10k-images-idx3-ubyte.gz": idx_gz(IMAGES[:1]),
                 "t10k-labels-idx1-ubyte.gz": idx_gz(numpy.array([5]))}
        for name, data in files.items():
            monkeypatch.setitem(kuzushiji_mnist._CHECKSUMS, name, Checksum(hashlib.sha256(data).hexdigest()))
        mirror({f"kuzushiji-mnist/{name}": data for name, data in files.items()})
    return put


def test_loads_the_canonical_format(dataset_root, serve):
    serve()
    train, test = get_kuzushiji_mnist(ndim=3, scale=255.0)
    assert (len(train), len(test)) == (3, 1)
    x, t = train[2]
    assert x.shape == (1, 28, 28) and int(t) == 2
    numpy.testing.assert_array_equal(x[0], IMAGES[2])
    assert int(test[0][1]) == 5


def test_structure_is_checked(dataset_root, serve):
    serve(train_labels=numpy.arange(2))
    with pytest.raises(ValueError, match=r"train images of shape \(3, 28, 28\) and labels of shape \(2,\)"):
        get_kuzushiji_mnist()


def test_truncated_idx_payload_is_rejected(dataset_root, serve, idx_gz):
    serve(train_images=idx_gz(numpy.zeros(100), shape=(3, 28, 28)))
    with pytest.raises(ValueError, match=r"header promises shape \(3, 28, 28\) \(2352 bytes\) but 100 bytes follow"):
        get_kuzushiji_mnist()


def test_labels():
    labels = get_kuzushiji_mnist_labels()
    assert labels[0] == ("o", "\u304a") and labels[9] == ("wo", "\u3092") and len(labels) == 10
