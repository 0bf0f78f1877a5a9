"""The loader shared by MNIST, Fashion-MNIST and Kuzushiji-MNIST: four gzipped IDX files, 28x28 images."""
import functools
import gzip

import numpy

from kusari.datasets import _loading

_SPLITS = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
           "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}


def read_idx(path: str) -> numpy.ndarray:
    """A gzipped IDX file of unsigned bytes (type code 0x08) as an array of its stated shape."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[:2] != b"\0\0" or data[2] != 0x08:
        raise ValueError(f"{path}: not an IDX file of unsigned bytes (header {data[:4]!r})")
    ndim = data[3]
    header = 4 + 4 * ndim
    shape = tuple(int.from_bytes(data[4 + 4 * k:8 + 4 * k], "big") for k in range(ndim))
    if len(data) - header != int(numpy.prod(shape)):
        raise ValueError(
            f"{path}: the header promises shape {shape} ({int(numpy.prod(shape))} bytes) but "
            f"{len(data) - header} bytes follow")
    return numpy.frombuffer(data, dtype=numpy.uint8, offset=header).reshape(shape)


def _build(dataset_name, base_url, checksums, split):
    images_file, labels_file = _SPLITS[split]
    images = read_idx(_loading.fetch(dataset_name, base_url + images_file, checksums[images_file]))
    labels = read_idx(_loading.fetch(dataset_name, base_url + labels_file, checksums[labels_file]))
    if images.ndim != 3 or images.shape[1:] != (28, 28) or labels.shape != images.shape[:1]:
        raise ValueError(
            f"{dataset_name}: {split} images of shape {images.shape} and labels of shape "
            f"{labels.shape} do not form N 28x28 images with N labels")
    return {"x": images.reshape(len(images), 784), "y": labels}


def load(dataset_name, base_url, checksums, owner, withlabel, ndim, scale, dtype, label_dtype,
         rgb_format):
    """(train, test) for the MNIST-like dataset whose four files live at ``base_url``."""
    if ndim not in (1, 2, 3):
        raise ValueError(f"{owner}: ndim must be 1, 2 or 3, got {ndim!r}")
    dtype = _loading.image_dtype(dtype, owner)
    shape = {1: (784,), 2: (28, 28), 3: (3 if rgb_format else 1, 28, 28)}[ndim]
    result = []
    for split in ("train", "test"):
        raw = _loading.cached_arrays(
            dataset_name, f"{split}.npz", functools.partial(_build, dataset_name, base_url, checksums, split))
        n = len(raw["x"])
        if ndim == 3:  # rgb_format repeats the grey channel three times
            images = numpy.broadcast_to(raw["x"].reshape(n, 1, 28, 28), (n,) + shape)
        else:
            images = raw["x"].reshape((n,) + shape)
        images = _loading.scale_images(images, scale, dtype)
        result.append(_loading.with_labels(images, raw["y"], withlabel, label_dtype))
    return tuple(result)
