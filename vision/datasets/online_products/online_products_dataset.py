"""OnlineProductsDataset: the Stanford Online Products images of 22,634 products in 12 super-classes."""
import os

import numpy

from kusari.vision.chainer_experimental.datasets.sliceable import GetterDataset
from kusari.vision.datasets._fetch import fetch_archive, read_table
from kusari.vision.utils import read_image

url = "http://ftp.cs.stanford.edu/cs/cvgl/Stanford_Online_Products.zip"   # no checksum published

online_products_super_label_names = (
    "bicycle", "cabinet", "chainer", "coffe_maker", "fan", "kettle", "lamp", "mug", "sofa", "stapler",
    "table", "toaster",
)


def get_online_products() -> str:
    """``<dataset root>/online_products/Stanford_Online_Products``, downloaded and extracted the first time."""
    directory = fetch_archive("online_products", url, {"Stanford_Online_Products": "Stanford_Online_Products"},
                              "get_online_products")
    return os.path.join(directory, "Stanford_Online_Products")


class OnlineProductsDataset(GetterDataset):
    """The `Stanford Online Products <http://cvgl.stanford.edu/projects/lifted_struct>`_ dataset for metric
    learning: 'train' holds the first 11,318 products, 'test' the other 11,316 (Song et al., 2016).

    Reads ``Ebay_<split>.txt`` (a header line, then ``image_id class_id super_class_id path``).

    Parameters
    ----------
    data_dir : str
        The ``Stanford_Online_Products`` folder, or ``'auto'`` to download it into
        ``<dataset root>/online_products`` the first time.
    split : {'train', 'test'}

    Notes
    -----
    ``img``: (3, H, W) float32, RGB in [0, 255]; ``label``: int32 scalar, the product (from 0);
    ``super_label``: int32 scalar, the super-class (from 0, see
    :data:`online_products_super_label_names`).
    """

    def __init__(self, data_dir="auto", split="train"):
        super().__init__()
        if split not in ("train", "test"):
            raise ValueError(f"OnlineProductsDataset: split must be 'train' or 'test', got {split!r}")
        if data_dir == "auto":
            data_dir = get_online_products()
        self.data_dir = data_dir
        rows = read_table(os.path.join(data_dir, f"Ebay_{split}.txt"), "OnlineProductsDataset",
                          f"the images of split {split!r}", (int, int, int, str), header=1)
        self.class_ids = numpy.array([row[1] - 1 for row in rows], dtype=numpy.int32)
        self.super_class_ids = numpy.array([row[2] - 1 for row in rows], dtype=numpy.int32)
        self.paths = [os.path.join(data_dir, row[3]) for row in rows]
        self.add_getter("img", self._get_image)
        self.add_getter("label", self._get_label)
        self.add_getter("super_label", self._get_super_label)

    def __len__(self):
        return len(self.paths)

    def _get_image(self, i):
        return read_image(self.paths[i], color=True)

    def _get_label(self, i):
        return self.class_ids[i]

    def _get_super_label(self, i):
        return self.super_class_ids[i]
