"""ADE20KSemanticSegmentationDataset: the MIT Scene Parsing Benchmark's training and validation images and labels."""
import glob
import os

import numpy

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets._fetch import require_directory
from kusari.vision.datasets.ade20k.ade20k_utils import get_ade20k
from kusari.vision.utils import read_image, read_label

url = "http://data.csail.mit.edu/places/ADEchallenge/ADEChallengeData2016.zip"


class ADE20KSemanticSegmentationDataset(GetterDataset):
    """Semantic segmentation of `ADE20K <http://sceneparsing.csail.mit.edu/>`_ as the MIT Scene Parsing
    Benchmark distributes it (20,210 training and 2,000 validation images, 150 classes).

    Reads ``ADEChallengeData2016/images/{training,validation}/*.jpg`` and
    ``ADEChallengeData2016/annotations/{training,validation}/*.png``, each sorted by name.

    Parameters
    ----------
    data_dir : str
        The folder holding ``ADEChallengeData2016``, or ``'auto'`` to download it into
        ``<dataset root>/ade20k`` the first time.
    split : {'train', 'val'}

    Notes
    -----
    ``img``: (3, H, W) float32, RGB in [0, 255]; ``label``: (H, W) int32 in [-1, 149] (the file's
    value less one: 0, "other", becomes -1).
    """

    def __init__(self, data_dir="auto", split="train"):
        super().__init__()
        if split not in ("train", "val"):
            raise ValueError(f"ADE20KSemanticSegmentationDataset: split must be 'train' or 'val', got {split!r}")
        if data_dir == "auto":
            data_dir = get_ade20k(url, "ADEChallengeData2016")
        folder = "training" if split == "train" else "validation"
        img_dir = os.path.join(data_dir, "ADEChallengeData2016", "images", folder)
        label_dir = os.path.join(data_dir, "ADEChallengeData2016", "annotations", folder)
        require_directory(img_dir, "ADE20KSemanticSegmentationDataset", f"the images of split {split!r}")
        require_directory(label_dir, "ADE20KSemanticSegmentationDataset", f"the labels of split {split!r}")
        self.img_paths = sorted(glob.glob(os.path.join(img_dir, "*.jpg")))
        self.label_paths = sorted(glob.glob(os.path.join(label_dir, "*.png")))
        if len(self.img_paths) != len(self.label_paths):
            raise ValueError(f"ADE20KSemanticSegmentationDataset: {img_dir} holds {len(self.img_paths)} images "
                             f"but {label_dir} {len(self.label_paths)} label files")
        # images and labels pair by position: equal counts with different names would pair them wrongly
        for img_path, label_path in zip(self.img_paths, self.label_paths):
            if _stem(img_path) != _stem(label_path):
                raise ValueError(f"ADE20KSemanticSegmentationDataset: the image {img_path} has no label file "
                                 f"of its name in {label_dir} (sorted, it meets {os.path.basename(label_path)})")
        self.add_getter("img", self._get_image)
        self.add_getter("label", self._get_label)

    def __len__(self):
        return len(self.img_paths)

    def _get_image(self, i):
        return read_image(self.img_paths[i])

    def _get_label(self, i):
        return read_label(self.label_paths[i], dtype=numpy.int32) - 1


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]
