"""VOCInstanceSegmentationDataset: PASCAL VOC 2012's object masks."""
import os

import numpy

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets.voc import voc_utils
from kusari.vision.datasets.voc.voc_semantic_segmentation_dataset import check_split, segmentation_ids
from kusari.vision.utils import read_image, read_label


class VOCInstanceSegmentationDataset(GetterDataset):
    """Instance segmentation of `PASCAL VOC 2012 <http://host.robots.ox.ac.uk/pascal/VOC/voc2012/>`_.

    Reads ``ImageSets/Segmentation/<split>.txt``, ``JPEGImages/<id>.jpg`` and the palette images
    ``SegmentationClass/<id>.png`` (classes) and ``SegmentationObject/<id>.png`` (instances).

    Parameters
    ----------
    data_dir : str
        The folder holding that layout (``VOCdevkit/VOC2012``), or ``'auto'`` to download VOC 2012
        into ``<dataset root>/voc`` the first time.
    split : {'train', 'val', 'trainval'}

    Notes
    -----
    ``img``: (3, H, W) float32, RGB in [0, 255]; ``mask``: (R, H, W) bool, one per object in
    increasing instance id; ``label``: (R,) int32 in [0, #fg_class - 1].
    """

    def __init__(self, data_dir="auto", split="train"):
        super().__init__()
        check_split("VOCInstanceSegmentationDataset", split)
        if data_dir == "auto":
            data_dir = voc_utils.get_voc("2012", split)
        self.ids = segmentation_ids("VOCInstanceSegmentationDataset", data_dir, split)
        self.data_dir = data_dir
        self.add_getter("img", self._get_image)
        self.add_getter(("mask", "label"), self._get_annotations)

    def __len__(self):
        return len(self.ids)

    def _get_image(self, i):
        return read_image(os.path.join(self.data_dir, "JPEGImages", self.ids[i] + ".jpg"), color=True)

    def _get_annotations(self, i):
        label_img = read_label(os.path.join(self.data_dir, "SegmentationClass", self.ids[i] + ".png"),
                               dtype=numpy.int32)
        label_img[label_img == 255] = -1
        inst_img = read_label(os.path.join(self.data_dir, "SegmentationObject", self.ids[i] + ".png"),
                              dtype=numpy.int32)
        inst_img[(inst_img == 0) | (inst_img == 255)] = -1
        return voc_utils.image_wise_to_instance_wise(label_img, inst_img)
