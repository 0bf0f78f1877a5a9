"""What the dataset loaders share: fetching raw files, caching converted arrays, scaling images."""
import os

import numpy

from kusari.configuration import get_dtype
from kusari.dataset.download import cache_or_load_file, cached_download, get_dataset_directory
from kusari.datasets.tuple_dataset import TupleDataset


def fetch(dataset_name: str, url: str, verify) -> str:
    """Path of a verified copy of ``url`` kept in the dataset's folder under the URL's file name."""
    directory = get_dataset_directory(dataset_name)
    return cached_download(url, path=os.path.join(directory, url.rsplit("/", 1)[-1]), verify=verify)


def _load_npz(path: str) -> dict:
    with numpy.load(path, allow_pickle=False) as archive:
        return {key: archive[key] for key in archive.files}


def cached_arrays(dataset_name: str, file_name: str, build) -> dict:
    """The arrays cached in ``<dataset folder>/<file_name>`` (.npz), made by ``build()`` the first time.

    The cache is written atomically, and one that cannot be read is rebuilt (see
    :func:`kusari.dataset.download.cache_or_load_file`).

    The .npz is not compressed: the downloaded archives stay next to it, and compressing costs
    seconds on every conversion and load for little gain on image data.
    """
    def create(temp_path):
        arrays = build()
        with open(temp_path, "wb") as f:
            numpy.savez(f, **arrays)
        return arrays

    path = os.path.join(get_dataset_directory(dataset_name), file_name)
    return cache_or_load_file(path, create, _load_npz)


def image_dtype(dtype, owner: str) -> numpy.dtype:
    """``dtype`` (``kusari.config.dtype`` when None), which must be a floating type."""
    dtype = get_dtype(dtype)
    if dtype.kind != "f":
        raise TypeError(f"{owner}: dtype must be a floating type, got {dtype}")
    return dtype


def scale_images(images: numpy.ndarray, scale, dtype: numpy.dtype) -> numpy.ndarray:
    """uint8 pixels mapped linearly from [0, 255] to [0, scale], as ``dtype``."""
    return numpy.multiply(images, scale / 255.0, dtype=dtype)


def with_labels(images, labels, withlabel: bool, label_dtype):
    """``TupleDataset(images, labels)`` if ``withlabel``, else the bare image array."""
    return TupleDataset(images, labels.astype(label_dtype)) if withlabel else images
