import gzip
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
    with pytest.raises(ValueError, match=r"^get_kuzushiji_mnist: .*train-images-idx3-ubyte.gz \(images of shape "
                                         r"\(3, 28, 28\)\) and .*train-labels-idx1-ubyte.gz \(labels of shape \(2,\)\)"):
        get_kuzushiji_mnist()


def test_truncated_idx_payload_is_rejected(dataset_root, serve, idx_gz):
    serve(train_images=idx_gz(numpy.zeros(100), shape=(3, 28, 28)))
    with pytest.raises(ValueError, match=r"^get_kuzushiji_mnist: .*train-images-idx3-ubyte.gz: the header promises "
                                         r"shape \(3, 28, 28\) \(2352 bytes\) but 100 bytes follow"):
        get_kuzushiji_mnist()


@pytest.mark.parametrize("damage, message", [
    (lambda data: data[:len(data) // 2], r"is not a complete gzip file \(EOFError"),
    (lambda data: data[:10] + bytes(b ^ 0xFF for b in data[10:30]) + data[30:], r"is not a complete gzip file"),
    (lambda data: gzip.compress(b"\0\0\x08\x03\0\0"), r"ends at byte 6, inside its IDX header of 16 bytes"),
])
def test_a_damaged_file_is_named(dataset_root, serve, idx_gz, damage, message):
    serve(train_images=damage(idx_gz(IMAGES)))
    with pytest.raises(ValueError, match=rf"^get_kuzushiji_mnist: .*train-images-idx3-ubyte.gz {message}"):
        get_kuzushiji_mnist()


def test_labels():
    labels = get_kuzushiji_mnist_labels()
    assert labels[0] == ("o", "\u304a") and labels[9] == ("wo", "\u3092") and len(labels) == 10
