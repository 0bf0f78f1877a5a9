"""COCOSemanticSegmentationDataset: MS COCO 2017's class label images, made from its panoptic annotations."""
import os

import numpy

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets._fetch import read_json
from kusari.vision.datasets.coco.coco_utils import get_coco
from kusari.vision.utils import read_image


class COCOSemanticSegmentationDataset(GetterDataset):
    """Semantic segmentation of `MS COCO <http://cocodataset.org/#home>`_ 2017 (133 classes).

    Each label image is made from the panoptic annotation as panopticapi's
    ``panoptic2semantic_segmentation`` converter does: a segment's pixels (``R + 256 G + 256² B`` of
    the panoptic PNG equals the segment's id) take its category's position in the annotation's
    ``categories``; the other pixels are -1.

    Parameters
    ----------
    data_dir : str
        The folder holding ``images/<split>2017/``, ``annotations/panoptic_<split>2017.json`` and
        ``annotations/panoptic_<split>2017/``, or ``'auto'`` to download them into
        ``<dataset root>/coco`` the first time.
    split : {'train', 'val'}

    Notes
    -----
    ``img``: (3, H, W) float32, RGB in [0, 255]; ``label``: (H, W) int32 in [-1, 132].
    """

    def __init__(self, data_dir="auto", split="train"):
        super().__init__()
        if data_dir == "auto":
            data_dir = get_coco(split, split, "2017", "panoptic")
        self.data_dir = data_dir
        self.img_root = os.path.join(data_dir, "images", f"{split}2017")
        self.label_root = os.path.join(data_dir, "annotations", f"panoptic_{split}2017")
        anno_path = os.path.join(data_dir, "annotations", f"panoptic_{split}2017.json")
        owner = "COCOSemanticSegmentationDataset"
        self.annos = read_json(anno_path, owner, f"the panoptic annotations of split {split!r}")
        self.anno_path = anno_path
        try:
            self.cat_ids = [cat["id"] for cat in self.annos["categories"]]
            self._label_of = {cat_id: label for label, cat_id in enumerate(self.cat_ids)}
            self.img_paths = [os.path.splitext(ann["file_name"])[0] + ".jpg" for ann in self.annos["annotations"]]
        except (KeyError, TypeError) as e:
            raise ValueError(f"{owner}: {anno_path} is not COCO's panoptic format: {type(e).__name__} "
                             f"{e}") from None
        self.add_getter("img", self._get_image)
        self.add_getter("label", self._get_label)

    def __len__(self):
        return len(self.img_paths)

    def _get_image(self, i):
        return read_image(os.path.join(self.img_root, self.img_paths[i]), dtype=numpy.float32, color=True)

    def _get_label(self, i):
        anno = self.annos["annotations"][i]
        rgb = read_image(os.path.join(self.label_root, anno["file_name"]), dtype=numpy.uint32, color=True)
        id_map = rgb[0] + 256 * rgb[1] + 256 * 256 * rgb[2]
        label = numpy.full(id_map.shape, -1, dtype=numpy.int32)
        try:
            segments = anno["segments_info"]
            ids = numpy.array([segment["id"] for segment in segments], dtype=numpy.uint32)
            labels = numpy.array([self._label_of[segment["category_id"]] for segment in segments], dtype=numpy.int32)
        except (KeyError, TypeError, ValueError, OverflowError) as e:
            raise ValueError(f"COCOSemanticSegmentationDataset: {self.anno_path}: the segments of "
                             f"{anno['file_name']} are malformed ({type(e).__name__} {e}); each needs an "
                             "integer id and a category_id of the file's categories") from None
        if len(segments):   # segment ids are unique within an image
            order = numpy.argsort(ids)
            ids, labels = ids[order], labels[order]
            position = numpy.searchsorted(ids, id_map).clip(max=len(ids) - 1)
            found = ids[position] == id_map
            label[found] = labels[position[found]]
        return label
