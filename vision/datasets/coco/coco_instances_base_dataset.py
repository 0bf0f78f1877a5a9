"""COCOInstancesBaseDataset: what COCO's bounding-box and instance segmentation datasets share (images,
instance annotations, masks)."""
import collections
import os
import warnings

import numpy
import PIL.Image
import PIL.ImageDraw

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets._fetch import read_json
from kusari.vision.datasets.coco.coco_utils import get_coco
from kusari.vision.utils import read_image


def _coco_mask():
    try:
        from pycocotools import mask
    except ImportError:
        raise ImportError("COCO datasets: pycocotools decodes COCO's run-length masks; "
                          "pip install 'kusari[vision]' (or pycocotools)") from None
    return mask


def segm_to_mask(segm, size: tuple) -> numpy.ndarray:
    """The (H, W) bool mask of a COCO ``segmentation``: polygons (a list of flat ``[x0, y0, x1, ...]``
    lists, filled with Pillow as ChainerCV does), or run-length encoding (a dict; ``counts`` a list
    or COCO's compressed string). A run-length mask has the size it states."""
    H, W = size
    if isinstance(segm, list):
        canvas = PIL.Image.fromarray(numpy.zeros((H, W), dtype=numpy.uint8))
        draw = PIL.ImageDraw.Draw(canvas)
        for polygon in segm:
            draw.polygon(xy=[tuple(xy) for xy in numpy.array(polygon).reshape(-1, 2)], outline=1, fill=1)
        return numpy.asarray(canvas).astype(bool)
    coco_mask = _coco_mask()
    rle = coco_mask.frPyObjects(segm, H, W) if isinstance(segm["counts"], list) else segm
    return coco_mask.decode(rle).astype(bool)


def _segm_size(segm, size: tuple) -> tuple:
    """The size of the mask ``segm`` decodes to (polygons are drawn at the image's size)."""
    return size if isinstance(segm, list) else tuple(segm["size"])


class COCOInstancesBaseDataset(GetterDataset):
    """Images and instance annotations of `MS COCO <http://cocodataset.org/#home>`_, with the getters
    of ``img``, ``mask`` and ``('bbox', 'label', 'area', 'crowded')``; subclasses choose the keys.

    Reads ``<data_dir>/images/<img split><year>/`` and
    ``<data_dir>/annotations/instances_<split><year>.json``.

    An annotation is kept when its box has a positive area, and, unless ``use_crowded``, when it is
    not a crowd; ``mask``, ``bbox``, ``label``, ``area`` and ``crowded`` hold the kept annotations in
    the file's order.
    """

    def __init__(self, data_dir="auto", split="train", year="2017", use_crowded=False):
        owner = type(self).__name__
        if year == "2017" and split in ("minival", "valminusminival"):
            raise ValueError(f"{owner}: COCO 2017 has no split {split!r} (it exists for 2014)")
        super().__init__()
        self.use_crowded = use_crowded
        img_split = "val" if split in ("val", "minival", "valminusminival") else "train"
        if data_dir == "auto":
            data_dir = get_coco(split, img_split, year, "instances")
        self.data_dir = data_dir
        self.img_root = os.path.join(data_dir, "images", f"{img_split}{year}")
        anno_path = os.path.join(data_dir, "annotations", f"instances_{split}{year}.json")
        annos = read_json(anno_path, owner, f"the annotations of split {split!r}")
        self.anno_path = anno_path
        section = "images"
        try:
            self.id_to_prop = {prop["id"]: prop for prop in annos["images"]}
            self.ids = sorted(self.id_to_prop)
            section = "categories"
            self.cat_ids = [cat["id"] for cat in annos["categories"]]
            self._label_of = {cat_id: label for label, cat_id in enumerate(self.cat_ids)}
            section = "annotations"
            self.id_to_anno = collections.defaultdict(list)
            for anno in annos["annotations"]:
                self.id_to_anno[anno["image_id"]].append(anno)
        except (KeyError, TypeError) as e:
            raise ValueError(f"{owner}: {anno_path} is not COCO's instances format: reading "
                             f"{section!r}: {type(e).__name__} {e}") from None

        self.add_getter("img", self._get_image)
        self.add_getter("mask", self._get_mask)
        self.add_getter(("bbox", "label", "area", "crowded"), self._get_annotations)

    def __len__(self):
        return len(self.ids)

    def _get_image(self, i):
        return read_image(os.path.join(self.img_root, self.id_to_prop[self.ids[i]]["file_name"]),
                          dtype=numpy.float32, color=True)

    def _annotations(self, i):
        """The annotations of image ``i``, their arrays, and which of them are kept."""
        annotation = self.id_to_anno[self.ids[i]]
        for ann in annotation:
            self._check_annotation(ann, i)
        xywh = numpy.array([ann["bbox"] for ann in annotation], dtype=numpy.float32).reshape(-1, 4)
        bbox = numpy.concatenate([xywh[:, 1::-1], xywh[:, 1::-1] + xywh[:, :1:-1]], axis=1)  # y, x, y + h, x + w
        try:
            label = numpy.array([self._label_of[ann["category_id"]] for ann in annotation], dtype=numpy.int32)
        except KeyError as e:
            raise ValueError(f"{type(self).__name__}: {self.anno_path}: image {self.ids[i]} has an annotation of "
                             f"category {e.args[0]}, which is not one of the categories {self.cat_ids}") from None
        area = numpy.array([ann["area"] for ann in annotation], dtype=numpy.float32)
        crowded = numpy.array([ann["iscrowd"] for ann in annotation], dtype=bool)
        size = bbox[:, 2:] - bbox[:, :2]
        keep = (size >= 0).all(axis=1) & (numpy.prod(size, axis=1) > 0)
        if not self.use_crowded:
            keep &= ~crowded
        return annotation, (bbox, label, area, crowded), keep

    def _check_annotation(self, ann, i) -> None:
        """Refuse an annotation of image ``i`` whose fields are missing or not numbers, naming it."""
        where = (f"{type(self).__name__}: {self.anno_path}: annotation {ann.get('id')!r} of image "
                 f"{self.ids[i]}")
        for key in ("bbox", "category_id", "area", "iscrowd"):
            if key not in ann:
                raise ValueError(f"{where} lacks {key!r}")
        bbox = ann["bbox"]
        if not (isinstance(bbox, list) and len(bbox) == 4
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in bbox)):
            raise ValueError(f"{where} has bbox {bbox!r}; COCO's bbox is [x, y, width, height], four numbers")
        for key in ("area", "iscrowd"):
            if not isinstance(ann[key], (int, float)) or isinstance(ann[key], bool):
                raise ValueError(f"{where} has {key} {ann[key]!r}, not a number")

    def _get_annotations(self, i):
        _, arrays, keep = self._annotations(i)
        return tuple(array[keep] for array in arrays)

    def _get_mask(self, i):
        annotation, _, keep = self._annotations(i)
        prop = self.id_to_prop[self.ids[i]]
        size = (prop["height"], prop["width"])
        masks = numpy.zeros((int(keep.sum()),) + size, dtype=bool)
        for mask, ann in zip(masks, (ann for ann, k in zip(annotation, keep) if k)):
            if _segm_size(ann["segmentation"], size) != size:
                warnings.warn(f"{type(self).__name__}: the mask of annotation {ann.get('id')} has size "
                              f"{_segm_size(ann['segmentation'], size)} but its image {size}; it is left empty",
                              stacklevel=2)
                continue
            mask[:] = segm_to_mask(ann["segmentation"], size)
        return masks
