"""CityscapesSemanticSegmentationDataset: Cityscapes' street scenes with fine or coarse label images."""
import glob
import os

import numpy

from kusari.dataset import get_dataset_directory
from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets.cityscapes.cityscapes_utils import cityscapes_labels
from kusari.vision.utils import read_image, read_label

# label id -> train id of the evaluated classes, -1 for the others
_TRAIN_IDS = numpy.full(256, -1, dtype=numpy.int32)
for _label in cityscapes_labels:
    if not _label.ignoreInEval:
        _TRAIN_IDS[_label.id] = _label.trainId
del _label


def cityscapes_directory(data_dir: str) -> str:
    """``data_dir``, or for ``'auto'`` ``<dataset root>/cityscapes`` (Cityscapes may not be redistributed:
    its files are put there by hand)."""
    return get_dataset_directory("cityscapes") if data_dir == "auto" else data_dir


class CityscapesSemanticSegmentationDataset(GetterDataset):
    """Semantic segmentation of `Cityscapes <https://www.cityscapes-dataset.com>`_ (19 evaluated classes).

    Cityscapes may not be redistributed: download ``leftImg8bit_trainvaltest.zip`` and
    ``gtFine_trainvaltest.zip`` (or ``gtCoarse.zip``) from its site and unpack them in ``data_dir``.
    Reads ``gtFine/<split>/<city>/*_gtFine_labelIds.png`` (or gtCoarse) and the images
    ``leftImg8bit/<split>/<city>/*_leftImg8bit.png`` of the same names, sorted by city and name.

    Parameters
    ----------
    data_dir : str
        The folder holding ``leftImg8bit`` and ``gtFine`` or ``gtCoarse``; ``'auto'`` is
        ``<dataset root>/cityscapes``.
    label_resolution : {'fine', 'coarse'}
        Which labels to read; it must be given.
    split : {'train', 'val'} ('train_extra' too for the coarse labels)
    ignore_labels : bool
        Map the label ids to the 19 train ids, and the classes not evaluated (``ignoreInEval`` in
        cityscapesScripts) to -1; with False the label images' ids come back unchanged.

    Notes
    -----
    ``img``: (3, H, W) float32, RGB in [0, 255]; ``label``: (H, W) int32, in [-1, 18] with
    ``ignore_labels``.
    """

    def __init__(self, data_dir="auto", label_resolution=None, split="train", ignore_labels=True):
        super().__init__()
        if label_resolution not in ("fine", "coarse"):
            raise ValueError(f"CityscapesSemanticSegmentationDataset: label_resolution must be 'fine' or 'coarse', "
                             f"got {label_resolution!r}")
        data_dir = cityscapes_directory(data_dir)
        resolution = "gtFine" if label_resolution == "fine" else "gtCoarse"
        img_dir = os.path.join(data_dir, "leftImg8bit", split)
        label_dir = os.path.join(data_dir, resolution, split)
        if not os.path.isdir(img_dir) or not os.path.isdir(label_dir):
            raise FileNotFoundError(
                f"CityscapesSemanticSegmentationDataset: Cityscapes is not at {data_dir} ({img_dir} and {label_dir} "
                f"must exist). Download it from https://www.cityscapes-dataset.com/ (it may not be "
                f"redistributed) and unpack leftImg8bit and {resolution} there.")
        self.ignore_labels = ignore_labels
        self.label_paths = sorted(glob.glob(os.path.join(label_dir, "*", "*_labelIds.png")))
        self.img_paths = [
            os.path.join(img_dir, os.path.basename(os.path.dirname(path)),
                         os.path.basename(path).replace(f"{resolution}_labelIds", "leftImg8bit"))
            for path in self.label_paths]
        self.add_getter("img", self._get_image)
        self.add_getter("label", self._get_label)

    def __len__(self):
        return len(self.img_paths)

    def _get_image(self, i):
        return read_image(self.img_paths[i])

    def _get_label(self, i):
        label = read_label(self.label_paths[i], dtype=numpy.int32)
        return _TRAIN_IDS[label] if self.ignore_labels else label
