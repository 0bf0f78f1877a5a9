"""VOCBboxDataset: PASCAL VOC's object detection annotations (boxes, labels, difficult flags)."""
import os
import warnings
import xml.etree.ElementTree as ET

import numpy

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets._fetch import parse_number, read_lines
from kusari.vision.datasets.voc import voc_utils
from kusari.vision.utils import read_image

_CORNERS = ("ymin", "xmin", "ymax", "xmax")


class VOCBboxDataset(GetterDataset):
    """Bounding boxes of `PASCAL VOC <http://host.robots.ox.ac.uk/pascal/VOC/voc2012/>`_.

    Reads the VOC layout: ``ImageSets/Main/<split>.txt`` lists the ids; ``JPEGImages/<id>.jpg`` and
    ``Annotations/<id>.xml`` hold each image and its objects.

    Parameters
    ----------
    data_dir : str
        The folder holding that layout (e.g. ``VOCdevkit/VOC2012``), or ``'auto'`` to download VOC
        ``year`` into ``<dataset root>/voc`` the first time.
    split : {'train', 'val', 'trainval', 'test'}
        'test' exists for 2007 only (another split name warns, as in ChainerCV, and is read if its
        list file exists).
    year : {'2007', '2012'}
        The challenge's year.
    use_difficult : bool
        Keep the objects marked difficult (by default they are dropped).
    return_difficult : bool
        Add the key ``difficult``.
    label_names : tuple of str, optional
        The class names, whose positions are the labels (default :data:`voc_bbox_label_names`); give
        your own to read another dataset in VOC's format. Not in ChainerCV.

    Notes
    -----
    Keys and values of an example:

    ==============  =========  =======  ============================================================
    key             shape      dtype    values
    ==============  =========  =======  ============================================================
    ``img``         (3, H, W)  float32  RGB in [0, 255]
    ``bbox``        (R, 4)     float32  ``(y_min, x_min, y_max, x_max)``, VOC's 1-based pixels less 1
    ``label``       (R,)       int32    in [0, #fg_class - 1]
    ``difficult``   (R,)       bool     only with ``return_difficult``
    ==============  =========  =======  ============================================================

    An image without (kept) objects gives ``bbox`` of shape (0, 4) and empty ``label`` and
    ``difficult``.
    """

    def __init__(self, data_dir="auto", split="train", year="2012", use_difficult=False,
                 return_difficult=False, *, label_names=None):
        super().__init__()
        if data_dir == "auto":
            data_dir = voc_utils.get_voc(year, split)
        if split not in ("train", "trainval", "val") and (split, year) != ("test", "2007"):
            warnings.warn(f"VOCBboxDataset: split should be 'train', 'trainval' or 'val' (2007 also has "
                          f"'test'), got split={split!r}, year={year!r}", stacklevel=2)
        id_list_file = os.path.join(data_dir, "ImageSets", "Main", f"{split}.txt")
        self.ids = [line.strip() for line in read_lines(id_list_file, "VOCBboxDataset", f"the ids of split {split!r}")]
        self.data_dir = data_dir
        self.use_difficult = use_difficult
        self.label_names = tuple(voc_utils.voc_bbox_label_names if label_names is None else label_names)

        self.add_getter("img", self._get_image)
        self.add_getter(("bbox", "label", "difficult"), self._get_annotations)
        if not return_difficult:
            self.keys = ("img", "bbox", "label")

    def __len__(self):
        return len(self.ids)

    def _get_image(self, i):
        return read_image(os.path.join(self.data_dir, "JPEGImages", self.ids[i] + ".jpg"), color=True)

    def _get_annotations(self, i):
        path = os.path.join(self.data_dir, "Annotations", self.ids[i] + ".xml")
        try:
            objects = ET.parse(path).findall("object")
        except ET.ParseError as e:   # its message gives the line and column
            raise ValueError(f"VOCBboxDataset: {path} is not well-formed XML ({e})") from None
        except FileNotFoundError:
            raise FileNotFoundError(f"VOCBboxDataset: {path} (the annotation of id {self.ids[i]!r}) does "
                                    "not exist") from None
        bbox, label, difficult = [], [], []
        for n, obj in enumerate(objects, 1):
            where = f"{path}, object {n}"
            flag = obj.findtext("difficult")
            flag = parse_number(flag, int, "VOCBboxDataset", f"{where}'s difficult") == 1 \
                if flag is not None else False
            if flag and not self.use_difficult:
                continue
            name = (obj.findtext("name") or "").lower().strip()
            if name not in self.label_names:
                raise ValueError(f"VOCBboxDataset: {where} is of class {name!r}, which is not one of "
                                 f"label_names {self.label_names}")
            corners = [obj.findtext(f"bndbox/{tag}") for tag in _CORNERS]
            if None in corners:
                raise ValueError(f"VOCBboxDataset: {where} lacks bndbox/{_CORNERS[corners.index(None)]}")
            # VOC counts pixels from 1
            bbox.append([parse_number(value, int, "VOCBboxDataset", f"{where}'s bndbox/{tag}") - 1
                         for tag, value in zip(_CORNERS, corners)])
            label.append(self.label_names.index(name))
            difficult.append(flag)
        return (numpy.array(bbox, dtype=numpy.float32).reshape(-1, 4), numpy.array(label, dtype=numpy.int32),
                numpy.array(difficult, dtype=bool))
