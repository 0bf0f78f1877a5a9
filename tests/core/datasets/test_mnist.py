"""get_mnist on the real MNIST files of ../shared/data/mnist, served offline (see its README)."""
import gzip
import os

import numpy
import pytest

from kusari.dataset.download import CacheError
from kusari.datasets import TupleDataset, get_mnist

TEST_CLASS_COUNTS = [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]  # ../shared/data/README.md


def _raw(shared_data, name):
    """The IDX file's payload, read independently of kusari."""
    with gzip.open(os.path.join(shared_data, "mnist", name)) as f:
        data = f.read()
    return numpy.frombuffer(data, dtype=numpy.uint8, offset=16 if "images" in name else 8)


def test_mnist_through_a_mirror_folder(dataset_root, shared_data, monkeypatch):
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", shared_data)
    train, test = get_mnist()
    assert isinstance(train, TupleDataset) and (len(train), len(test)) == (60000, 10000)
    x, t = train[0]
    assert x.shape == (784,) and x.dtype == numpy.float32 and t.dtype == numpy.int32
    labels = numpy.array([label for _, label in test[numpy.arange(10000)]])
    assert numpy.bincount(labels).tolist() == TEST_CLASS_COUNTS
    numpy.testing.assert_array_equal(labels, _raw(shared_data, "t10k-labels-idx1-ubyte.gz"))
    pixels = numpy.stack([image for image, _ in test[0:100]])
    numpy.testing.assert_allclose(
        pixels, _raw(shared_data, "t10k-images-idx3-ubyte.gz")[:78400].reshape(100, 784) / 255.0, rtol=1e-6)
    assert pixels.min() == 0 and pixels.max() == 1
    names = sorted(os.listdir(dataset_root / "mnist"))
    assert [n for n in names if not n.endswith(".lock")] == [
        "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", "test.npz",
        "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "train.npz"]

    # from now on everything comes from the converted cache, with no source at all
    monkeypatch.delenv("KUSARI_DOWNLOAD_MIRROR")
    for name in names:
        if name.endswith(".gz"):
            os.remove(dataset_root / "mnist" / name)
    train_images, test_images = get_mnist(withlabel=False, ndim=2)
    assert train_images.shape == (60000, 28, 28) and test_images.shape == (10000, 28, 28)
    numpy.testing.assert_array_equal(test_images[3], pixels[3].reshape(28, 28))


def test_mnist_over_http(dataset_root, shared_data, http_server, monkeypatch):
    server = http_server(shared_data)
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", server.url)
    train, test = get_mnist(withlabel=False, ndim=3, scale=255.0, dtype=numpy.float16)
    assert sorted(server.hits) == ["/mnist/t10k-images-idx3-ubyte.gz", "/mnist/t10k-labels-idx1-ubyte.gz",
                                   "/mnist/train-images-idx3-ubyte.gz", "/mnist/train-labels-idx1-ubyte.gz"]
    assert train.shape == (60000, 1, 28, 28) and test.shape == (10000, 1, 28, 28)
    assert train.dtype == numpy.float16
    # float16 holds 0..255 exactly, so scale=255 gives back the raw bytes
    numpy.testing.assert_array_equal(test.reshape(-1), _raw(shared_data, "t10k-images-idx3-ubyte.gz"))
    numpy.testing.assert_array_equal(train[-1].reshape(-1), _raw(shared_data, "train-images-idx3-ubyte.gz")[-784:])


def test_argument_errors(dataset_root):
    with pytest.raises(ValueError, match="get_mnist: ndim must be 1, 2 or 3, got 4"):
        get_mnist(ndim=4)
    with pytest.raises(TypeError, match="get_mnist: dtype must be a floating type, got int32"):
        get_mnist(dtype=numpy.int32)


def _damage(path, how):
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        if how == "truncate":
            f.truncate(size // 2)
        else:  # flip 64 bytes in the middle of the image data
            f.seek(size // 2)
            middle = f.read(64)
            f.seek(size // 2)
            f.write(bytes(b ^ 0xFF for b in middle))


@pytest.mark.parametrize("how", ["truncate", "garble"])
def test_damaged_cache_is_rebuilt(dataset_root, shared_data, monkeypatch, how):
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", shared_data)
    get_mnist()
    cache = dataset_root / "mnist" / "test.npz"
    _damage(cache, how)
    with pytest.warns(UserWarning, match=f"{cache} is unreadable .*; deleting and rebuilding it"):
        _, test = get_mnist(withlabel=False, scale=255.0)
    numpy.testing.assert_array_equal(test.reshape(-1), _raw(shared_data, "t10k-images-idx3-ubyte.gz"))
    with numpy.load(cache) as archive:  # the rebuilt cache is whole
        numpy.testing.assert_array_equal(archive["y"], _raw(shared_data, "t10k-labels-idx1-ubyte.gz"))
    assert not [name for name in os.listdir(dataset_root / "mnist") if name.startswith(".")]


def test_unrebuildable_cache_error_names_the_file(dataset_root, shared_data, monkeypatch):
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", shared_data)
    get_mnist()
    monkeypatch.delenv("KUSARI_DOWNLOAD_MIRROR")  # offline, and the downloaded sources are gone
    folder = dataset_root / "mnist"
    for name in os.listdir(folder):
        if name.endswith(".gz"):
            os.remove(folder / name)
    cache = folder / "train.npz"
    _damage(cache, "truncate")
    with pytest.warns(UserWarning, match="unreadable"), pytest.raises(CacheError) as info:
        get_mnist()
    message = str(info.value)
    assert f"the cached file {cache} is unreadable (BadZipFile: " in message
    assert f"{cache} has been deleted (nothing else needs deleting)" in message
    assert f"place it at:\n  {folder / 'train-images-idx3-ubyte.gz'}" in message  # what to provide
    assert not cache.exists()
