import hashlib
import io

import numpy
import pytest

from kusari.dataset.download import Checksum
from kusari.datasets import get_svhn, svhn

scipy_io = pytest.importorskip("scipy.io")


def _mat(n, labels):
    """A cropped-digits .mat file: X is (32, 32, 3, n) = (height, width, channel, image)."""
    x = numpy.zeros((32, 32, 3, n), dtype=numpy.uint8)
    for i in range(n):
        for c in range(3):
            x[:, :, c, i] = 30 * i + c
    x[5, 7, 0, 0] = 200  # row 5, column 7 of image 0's first channel
    buffer = io.BytesIO()
    scipy_io.savemat(buffer, {"X": x, "y": numpy.array(labels, dtype=numpy.uint8).reshape(n, 1)})
    return buffer.getvalue()


@pytest.fixture
def serve(mirror, monkeypatch):
    def put(files):
        for split, data in files.items():
            monkeypatch.setitem(svhn._CHECKSUMS, split, Checksum(hashlib.md5(data).hexdigest(), "md5"))
        mirror({f"svhn/{split}_32x32.mat": data for split, data in files.items()})
    return put


def test_svhn(dataset_root, serve):
    serve({"train": _mat(3, [10, 1, 9]), "test": _mat(2, [3, 10]), "extra": _mat(1, [2])})
    train, test = get_svhn(scale=255.0)
    assert (len(train), len(test)) == (3, 2)
    x, t = train[0]
    assert x.shape == (3, 32, 32) and x.dtype == numpy.float32 and t.dtype == numpy.int32
    assert x[0, 5, 7] == 200 and x[0, 0, 0] == 0 and x[2, 0, 0] == 2
    assert [int(label) for _, label in train[0:3]] == [0, 1, 9]  # the files call the digit 0 "10"
    assert int(train[1][0][1, 3, 3]) == 31
    assert [int(label) for _, label in test[0:2]] == [3, 0]
    train, test, extra = get_svhn(withlabel=False, add_extra=True, dtype=numpy.float16)
    assert extra.shape == (1, 3, 32, 32) and extra.dtype == numpy.float16
    numpy.testing.assert_allclose(train[1, 2], numpy.full((32, 32), 32 / 255.0), rtol=1e-3)


def test_bad_mat_structure(dataset_root, serve):
    buffer = io.BytesIO()
    scipy_io.savemat(buffer, {"X": numpy.zeros((28, 28, 3, 2), numpy.uint8), "y": numpy.ones((2, 1), numpy.uint8)})
    serve({"train": buffer.getvalue()})
    with pytest.raises(ValueError, match=r"X of shape \(28, 28, 3, 2\) and y of shape \(2, 1\)"):
        get_svhn()
