"""DirectoryParsingLabelDataset: images labelled by the name of the sub-folder of ``root`` that holds them."""
import os
from typing import Callable

import numpy

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.utils import read_image

_IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp")


def directory_parsing_label_names(root: str, numerical_sort: bool = False) -> list:
    """The names of the folders directly under ``root``, sorted: label ``i`` is the ``i``-th name.

    Parameters
    ----------
    root : str
        The folder whose sub-folders name the classes.
    numerical_sort : bool
        Sort the names as integers (``'2'`` before ``'10'``); every name must then be one.

    Returns
    -------
    list of str
    """
    names = [d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))]
    return sorted(names, key=int) if numerical_sort else sorted(names)


def _has_image_extension(path: str) -> bool:
    return os.path.splitext(path)[1].lower() in _IMAGE_EXTENSIONS


def _parse_label_dataset(root: str, label_names: list, check_img_file: Callable) -> tuple:
    """The image paths under each ``root/<label name>`` (folders and files in name order) and their labels."""
    img_paths, labels = [], []
    for label, name in enumerate(label_names):
        for folder, _, files in sorted(os.walk(os.path.join(root, name)), key=lambda walked: walked[0]):
            for file in sorted(files):
                path = os.path.join(folder, file)
                if check_img_file(path):
                    img_paths.append(path)
                    labels.append(label)
    return img_paths, numpy.array(labels, dtype=numpy.int32)


class DirectoryParsingLabelDataset(GetterDataset):
    """A label dataset of the images in the sub-folders of ``root``, each folder's name a class.

    ``root/cat/a.png``, ``root/cat/more/b.png`` and ``root/dog/c.jpg`` give three images labelled 0,
    0 and 1 (classes ``directory_parsing_label_names(root)`` = ``['cat', 'dog']``).

    Parameters
    ----------
    root : str
        The folder of class folders.
    check_img_file : callable, optional
        ``check_img_file(path) -> bool``: whether a file is an image to read; by default its
        extension is .jpg, .jpeg, .png, .ppm or .bmp (any case).
    color : bool
        Read RGB images (else grayscale).
    numerical_sort : bool
        Order the classes by the integer value of their names; files are always in name order.

    Attributes
    ----------
    img_paths : list of str
    labels : numpy.ndarray, (N,) int32

    Notes
    -----
    ``img``: (3, H, W) float32 (``(1, H, W)`` when not ``color``), values in [0, 255]; ``label``: int32
    scalar in [0, #class - 1].
    """

    def __init__(self, root, check_img_file=None, color=True, numerical_sort=False):
        super().__init__()
        self.color = color
        label_names = directory_parsing_label_names(root, numerical_sort=numerical_sort)
        self.img_paths, self.labels = _parse_label_dataset(root, label_names, check_img_file or _has_image_extension)
        self.add_getter("img", self._get_image)
        self.add_getter("label", self._get_label)

    def __len__(self):
        return len(self.img_paths)

    def _get_image(self, i):
        return read_image(self.img_paths[i], color=self.color)

    def _get_label(self, i):
        return self.labels[i]
