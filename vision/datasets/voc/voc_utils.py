"""PASCAL VOC: the archives, their download, the label names and colours, and instance masks from label images."""
import os

import numpy

from kusari.dataset import Checksum
from kusari.vision.datasets._fetch import fetch_archive

urls = {
    "2012": "http://host.robots.ox.ac.uk/pascal/VOC/voc2012/VOCtrainval_11-May-2012.tar",
    "2007": "http://host.robots.ox.ac.uk/pascal/VOC/voc2007/VOCtrainval_06-Nov-2007.tar",
    "2007_test": "http://host.robots.ox.ac.uk/pascal/VOC/voc2007/VOCtest_06-Nov-2007.tar",
}

# MD5 of the archives, as torchvision checks them (torchvision/datasets/voc.py); ChainerCV published none.
_CHECKSUMS = {
    "2012": Checksum("6cd6e144f989b92b3379bac3b3de84fd", "md5"),
    "2007": Checksum("c52e279531787c972589f7e41ab4ae64", "md5"),
    "2007_test": Checksum("b6e924de25625d8de591ea690078ad9f", "md5"),
}

# where each archive's VOCdevkit/VOC<year> folder is kept under <dataset root>/voc (the 2007 test
# archive has a folder of its own: ChainerCV merged it into the trainval one)
_FOLDERS = {"2012": "VOCdevkit/VOC2012", "2007": "VOCdevkit/VOC2007", "2007_test": "VOCdevkit/VOC2007_test"}


def get_voc(year: str, split: str) -> str:
    """The folder of VOC ``year`` holding ``split`` (``<dataset root>/voc/VOCdevkit/VOC<year>``; for the
    2007 test split ``VOC2007_test``), downloaded and extracted the first time.

    Raises
    ------
    ValueError
        ``year`` is not '2007' or '2012'.
    kusari.dataset.DownloadError
        The archive could not be obtained; the message says where to put it by hand.
    """
    if year not in ("2007", "2012"):
        raise ValueError(f"get_voc: year must be '2007' or '2012', got {year!r}")
    key = "2007_test" if (year, split) == ("2007", "test") else year
    directory = fetch_archive("voc", urls[key], {f"VOCdevkit/VOC{year}": _FOLDERS[key]}, "get_voc",
                              verify=_CHECKSUMS[key])
    return os.path.join(directory, *_FOLDERS[key].split("/"))


def image_wise_to_instance_wise(label_img: numpy.ndarray, inst_img: numpy.ndarray) -> tuple:
    """Instance masks and labels from a class label image and an instance id image.

    Parameters
    ----------
    label_img : numpy.ndarray, (H, W) int32
        Class of each pixel: 0 for the background, ``c + 1`` for foreground class ``c``.
    inst_img : numpy.ndarray, (H, W) int32
        Instance id of each pixel, -1 where there is none.

    Returns
    -------
    mask : numpy.ndarray, (R, H, W) bool
        One mask per instance id, in increasing id order.
    label : numpy.ndarray, (R,) int32
        The foreground class of each instance: the smallest class under its mask, less one.
    """
    ids = numpy.unique(inst_img)
    ids = ids[ids != -1]
    mask = inst_img[None] == ids[:, None, None]
    smallest = numpy.where(mask, label_img[None], numpy.iinfo(numpy.int32).max).min(axis=(1, 2))
    label = (smallest - 1).astype(numpy.int32)
    if (label < 0).any():
        bad = int(ids[numpy.flatnonzero(label < 0)[0]])
        raise ValueError(f"image_wise_to_instance_wise: instance {bad} covers pixels of class "
                         f"{int(smallest[label < 0][0])} (background or ignored), not of a foreground class")
    return mask, label


def _voc_colormap(n: int) -> tuple:
    """The colours of the VOC development kit's ``labelcolormap``: the bits of ``i`` spread over R, G, B."""
    colors = []
    for i in range(n):
        rgb = [0, 0, 0]
        for shift in range(7, -1, -1):
            for channel in range(3):
                rgb[channel] |= ((i >> channel) & 1) << shift
            i >>= 3
        colors.append(tuple(rgb))
    return tuple(colors)


voc_bbox_label_names = (
    "aeroplane", "bicycle", "bird", "boat", "bottle", "bus", "car", "cat", "chair", "cow", "diningtable",
    "dog", "horse", "motorbike", "person", "pottedplant", "sheep", "sofa", "train", "tvmonitor",
)
voc_semantic_segmentation_label_names = ("background",) + voc_bbox_label_names
voc_instance_segmentation_label_names = voc_bbox_label_names

# the colours of the MATLAB development kit: class c is colour c, the ignored boundary (255) colour 255
voc_semantic_segmentation_label_colors = _voc_colormap(len(voc_semantic_segmentation_label_names))
voc_semantic_segmentation_ignore_label_color = _voc_colormap(256)[255]
