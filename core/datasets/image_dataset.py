"""Image datasets read from files or zip archives with Pillow: images come out as CHW arrays."""
import bisect
import io
import itertools
import os
import threading
import zipfile

import numpy

from kusari.configuration import get_dtype
from kusari.dataset.dataset_mixin import DatasetMixin


def _read_image(source, dtype) -> numpy.ndarray:
    """An image file (path or file object) as a ``(channels, height, width)`` array."""
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError("image datasets need Pillow: pip install 'kusari[vision]'") from e
    with Image.open(source) as image:
        array = numpy.asarray(image, dtype=dtype)
    if array.ndim == 2:  # greyscale
        array = array[:, :, None]
    return array.transpose(2, 0, 1)


def _read_pairs(path: str, owner: str) -> list[tuple[str, int]]:
    """``path label`` lines (Caffe's list format) as (path, int label) pairs."""
    pairs = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 2:
                raise ValueError(
                    f"{owner}: line {number} of {path} should be 'path label', got {line.strip()!r}")
            try:
                pairs.append((fields[0], int(fields[1])))
            except ValueError:
                raise ValueError(
                    f"{owner}: line {number} of {path} has a non-integer label {fields[1]!r}") from None
    return pairs


class ImageDataset(DatasetMixin):
    """Images read from files on every access, as arrays of shape ``(C, H, W)`` (C=1 for greyscale).

    Parameters
    ----------
    paths : str or list of str
        image paths, or the path of a text file with one per line;
        relative to ``root``.
    root : str
        folder the paths are relative to.
    dtype
        array dtype; ``kusari.config.dtype`` when None.
    """

    def __init__(self, paths, root=".", dtype=None):
        if isinstance(paths, str):
            with open(paths) as f:
                paths = [line.strip() for line in f if line.strip()]
        self._paths = paths
        self._root = root
        self._dtype = get_dtype(dtype)

    def __len__(self):
        return len(self._paths)

    def get_example(self, i):
        return _read_image(os.path.join(self._root, self._paths[i]), self._dtype)


class LabeledImageDataset(DatasetMixin):
    """(image ``(C, H, W)``, label ``()``) pairs; images are read from files on every access.

    Parameters
    ----------
        pairs (str or list of (str, int)): (path, label) pairs, or the path of a text file whose
        lines are ``path label``; paths are relative to ``root``.
    root : str
        folder the paths are relative to.
    dtype
        image dtype; ``kusari.config.dtype`` when None.
    label_dtype
        label dtype.
    """

    def __init__(self, pairs, root=".", dtype=None, label_dtype=numpy.int32):
        if isinstance(pairs, str):
            pairs = _read_pairs(pairs, "LabeledImageDataset")
        self._pairs = pairs
        self._root = root
        self._dtype = get_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        image = _read_image(os.path.join(self._root, path), self._dtype)
        return image, numpy.array(label, dtype=self._label_dtype)


class ZippedImageDataset(DatasetMixin):
    """Images stored in one zip archive, as arrays of shape ``(C, H, W)``.

    Every file (not folder) of the archive is an example, in the archive's order. The archive is
    reopened after pickling or in a forked process, so the dataset can go to worker processes.

    Parameters
    ----------
    zipfilename : str
        path of the zip archive.
    dtype
        array dtype; ``kusari.config.dtype`` when None.
    """

    def __init__(self, zipfilename, dtype=None):
        self._zipfilename = zipfilename
        self._dtype = get_dtype(dtype)
        self._lock = threading.Lock()
        self._zip = None
        self._zip_pid = None
        with zipfile.ZipFile(zipfilename) as archive:
            self._paths = [name for name in archive.namelist() if not name.endswith("/")]

    def __len__(self):
        return len(self._paths)

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_zip"] = state["_lock"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def read(self, name: str) -> numpy.ndarray:
        """The image stored in the archive under ``name``."""
        with self._lock:
            if self._zip is None or self._zip_pid != os.getpid():
                self._zip = zipfile.ZipFile(self._zipfilename)
                self._zip_pid = os.getpid()
            data = self._zip.read(name)
        return _read_image(io.BytesIO(data), self._dtype)

    def get_example(self, i):
        """Example ``i``; a str is taken as a file name in the archive (as Chainer allows)."""
        return self.read(i if isinstance(i, str) else self._paths[i])


class MultiZippedImageDataset(DatasetMixin):
    """The images of several zip archives, one archive after another (see ZippedImageDataset).

    Parameters
    ----------
    zipfilenames : list of str
        paths of the zip archives.
    dtype
        array dtype; ``kusari.config.dtype`` when None.
    """

    def __init__(self, zipfilenames, dtype=None):
        self._archives = [ZippedImageDataset(name, dtype) for name in zipfilenames]
        self._ends = list(itertools.accumulate(len(a) for a in self._archives))

    def __len__(self):
        return self._ends[-1] if self._ends else 0

    def get_example(self, i):
        if not 0 <= i < len(self):
            raise IndexError(f"MultiZippedImageDataset: index {i} is out of range for length {len(self)}")
        k = bisect.bisect_right(self._ends, i)
        return self._archives[k].get_example(i - (self._ends[k - 1] if k else 0))


class LabeledZippedImageDataset(DatasetMixin):
    """(image ``(C, H, W)``, label ``()``) pairs with the images in a zip archive.

    Parameters
    ----------
    zipfilename : str
        path of the zip archive.
    labelfilename : str
        text file whose ``i``-th line is ``name label``, ``name`` being a file
        in the archive.
    dtype
        image dtype; ``kusari.config.dtype`` when None.
    label_dtype
        label dtype.
    """

    def __init__(self, zipfilename, labelfilename, dtype=None, label_dtype=numpy.int32):
        self._pairs = _read_pairs(labelfilename, "LabeledZippedImageDataset")
        self._archive = ZippedImageDataset(zipfilename, dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        name, label = self._pairs[i]
        return self._archive.read(name), numpy.array(label, dtype=self._label_dtype)
