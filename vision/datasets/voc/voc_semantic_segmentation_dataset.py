"""VOCSemanticSegmentationDataset: PASCAL VOC 2012's class label images."""
import os

import numpy

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets._fetch import read_lines
from kusari.vision.datasets.voc import voc_utils
from kusari.vision.utils import read_image, read_label


def check_split(owner: str, split: str) -> None:
    """Refuse a split of VOC 2012's segmentation sets other than 'train', 'val' and 'trainval'."""
    if split not in ("train", "trainval", "val"):
        raise ValueError(f"{owner}: split must be 'train', 'trainval' or 'val', got {split!r}")


def segmentation_ids(owner: str, data_dir: str, split: str) -> list:
    """The ids listed in ``ImageSets/Segmentation/<split>.txt`` of ``data_dir``."""
    path = os.path.join(data_dir, "ImageSets", "Segmentation", f"{split}.txt")
    return [line.strip() for line in read_lines(path, owner, f"the ids of split {split!r}")]


class VOCSemanticSegmentationDataset(GetterDataset):
    """Semantic segmentation of `PASCAL VOC 2012 <http://host.robots.ox.ac.uk/pascal/VOC/voc2012/>`_.

    Reads ``ImageSets/Segmentation/<split>.txt``, ``JPEGImages/<id>.jpg`` and the palette images
    ``SegmentationClass/<id>.png``.

    Parameters
    ----------
    data_dir : str
        The folder holding that layout (``VOCdevkit/VOC2012``), or ``'auto'`` to download VOC 2012
        into ``<dataset root>/voc`` the first time.
    split : {'train', 'val', 'trainval'}

    Notes
    -----
    ``img``: (3, H, W) float32, RGB in [0, 255]; ``label``: (H, W) int32 in [-1, #class - 1], where
    0 is the background and -1 the boundary pixels VOC marks 255.
    """

    def __init__(self, data_dir="auto", split="train"):
        super().__init__()
        check_split("VOCSemanticSegmentationDataset", split)
        if data_dir == "auto":
            data_dir = voc_utils.get_voc("2012", split)
        self.ids = segmentation_ids("VOCSemanticSegmentationDataset", data_dir, split)
        self.data_dir = data_dir
        self.add_getter("img", self._get_image)
        self.add_getter("label", self._get_label)

    def __len__(self):
        return len(self.ids)

    def _get_image(self, i):
        return read_image(os.path.join(self.data_dir, "JPEGImages", self.ids[i] + ".jpg"), color=True)

    def _get_label(self, i):
        label = read_label(os.path.join(self.data_dir, "SegmentationClass", self.ids[i] + ".png"), dtype=numpy.int32)
        label[label == 255] = -1
        return label
