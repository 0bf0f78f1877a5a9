import hashlib
import io
import pickle
import tarfile

import numpy
import pytest

from kusari.dataset.download import Checksum, DownloadError
from kusari.datasets import cifar, get_cifar10, get_cifar100


def _batch(labels, key):
    """A CIFAR python batch: row i is image i as 1024 R, then 1024 G, then 1024 B bytes."""
    n = len(labels)
    data = numpy.empty((n, 3, 1024), dtype=numpy.uint8)
    for i in range(n):
        data[i] = [[10 * i], [10 * i + 1], [10 * i + 2]]
    return pickle.dumps({"data": data.reshape(n, 3072), key: list(labels), "batch_label": "x"}, protocol=2)


def _tar_gz(members: dict) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _serve(mirror, monkeypatch, name, members):
    data = _tar_gz(members)
    monkeypatch.setitem(cifar._CHECKSUMS, name, Checksum(hashlib.sha256(data).hexdigest()))
    mirror({f"cifar/{name}-python.tar.gz": data})


def test_cifar10(dataset_root, mirror, monkeypatch):
    members = {f"cifar-10-batches-py/data_batch_{i}": _batch([i, 9 - i], "labels") for i in range(1, 6)}
    members["cifar-10-batches-py/test_batch"] = _batch([4, 5, 6], "labels")
    _serve(mirror, monkeypatch, "cifar-10", members)
    train, test = get_cifar10()
    assert (len(train), len(test)) == (10, 3)
    x, t = train[3]  # second image of data_batch_2
    assert x.shape == (3, 32, 32) and x.dtype == numpy.float32 and t.dtype == numpy.int32 and t == 7
    for channel in range(3):
        numpy.testing.assert_allclose(x[channel], numpy.full((32, 32), (10 + channel) / 255.0), rtol=1e-6)
    assert [int(label) for _, label in train[0:10]] == [1, 8, 2, 7, 3, 6, 4, 5, 5, 4]
    flat, _ = get_cifar10(withlabel=False, ndim=1, scale=255.0, dtype=numpy.float64)
    assert flat.shape == (10, 3072) and flat.dtype == numpy.float64
    numpy.testing.assert_array_equal(flat[1, [0, 1024, 2048]], [10, 11, 12])


def test_cifar100_uses_the_fine_labels(dataset_root, mirror, monkeypatch):
    train = pickle.loads(_batch([17, 99], "fine_labels"))
    train["coarse_labels"] = [1, 2]
    _serve(mirror, monkeypatch, "cifar-100", {"cifar-100-python/train": pickle.dumps(train, protocol=2),
                                              "cifar-100-python/test": _batch([0], "fine_labels")})
    train, test = get_cifar100()
    assert [int(t) for _, t in train[0:2]] == [17, 99] and len(test) == 1
    assert train[1][0].shape == (3, 32, 32)


def test_bad_archive_structure(dataset_root, mirror, monkeypatch):
    members = {f"cifar-10-batches-py/data_batch_{i}": _batch([1], "labels") for i in range(1, 6)}
    members["cifar-10-batches-py/test_batch"] = pickle.dumps({"data": numpy.zeros((2, 100), numpy.uint8),
                                                             "labels": [1, 2]})
    _serve(mirror, monkeypatch, "cifar-10", members)
    with pytest.raises(ValueError, match=r"test_batch holds data of shape \(2, 100\) and labels of shape \(2,\)"):
        get_cifar10()


def test_offline_failure_names_the_canonical_url(dataset_root):
    with pytest.raises(DownloadError) as info:
        get_cifar100()
    assert "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz" in str(info.value)
    assert str(dataset_root / "cifar" / "cifar-100-python.tar.gz") in str(info.value)


def test_argument_errors():
    with pytest.raises(ValueError, match="get_cifar10: ndim must be 1 or 3, got 2"):
        get_cifar10(ndim=2)
