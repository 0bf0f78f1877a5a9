"""The loader shared by MNIST, Fashion-MNIST and Kuzushiji-MNIST: four gzipped IDX files, 28x28 images."""
import functools
import gzip
import zlib

import numpy

from kusari.datasets import _loading

_SPLITS = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
           "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}


def read_idx(path: str, owner: str = "read_idx") -> numpy.ndarray:
    """A gzipped IDX file of unsigned bytes (type code 0x08) as an array of its stated shape.

    A file that does not decompress to its end (truncated, corrupt) or whose IDX header does not
    fit its data is a ValueError naming ``owner`` (the loader) and the file.
    """
    try:
        with gzip.open(path, "rb") as f:
            data = f.read()
    except (EOFError, gzip.BadGzipFile, zlib.error) as e:
        raise ValueError(f"{owner}: {path} is not a complete gzip file ({type(e).__name__}: {e})") from None
    if len(data) < 4 or data[:2] != b"\0\0" or data[2] != 0x08:
        raise ValueError(f"{owner}: {path} is not an IDX file of unsigned bytes (header {data[:4]!r})")
    ndim = data[3]
    header = 4 + 4 * ndim
    if len(data) < header:
        raise ValueError(f"{owner}: {path} ends at byte {len(data)}, inside its IDX header of "
                         f"{header} bytes")
    shape = tuple(int.from_bytes(data[4 + 4 * k:8 + 4 * k], "big") for k in range(ndim))
    if len(data) - header != int(numpy.prod(shape)):
        raise ValueError(
            f"{owner}: {path}: the header promises shape {shape} ({int(numpy.prod(shape))} bytes) "
            f"but {len(data) - header} bytes follow")
    return numpy.frombuffer(data, dtype=numpy.uint8, offset=header).reshape(shape)


def _build(dataset_name, base_url, checksums, owner, split):
    images_file, labels_file = _SPLITS[split]
    images_path = _loading.fetch(dataset_name, base_url + images_file, checksums[images_file])
    labels_path = _loading.fetch(dataset_name, base_url + labels_file, checksums[labels_file])
    images, labels = read_idx(images_path, owner), read_idx(labels_path, owner)
    if images.ndim != 3 or images.shape[1:] != (28, 28) or labels.shape != images.shape[:1]:
        raise ValueError(
            f"{owner}: {images_path} (images of shape {images.shape}) and {labels_path} (labels "
            f"of shape {labels.shape}) do not form N 28x28 images with N labels")
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
            dataset_name, f"{split}.npz", functools.partial(_build, dataset_name, base_url, checksums, owner, split))
        n = len(raw["x"])
        if ndim == 3:  # rgb_format repeats the grey channel three times
            images = numpy.broadcast_to(raw["x"].reshape(n, 1, 28, 28), (n,) + shape)
        else:
            images = raw["x"].reshape((n,) + shape)
        images = _loading.scale_images(images, scale, dtype)
        result.append(_loading.with_labels(images, raw["y"], withlabel, label_dtype))
    return tuple(result)
