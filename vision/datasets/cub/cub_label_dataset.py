"""CUBLabelDataset: the CUB-200-2011 bird images with their species."""
import os

import numpy

from kusari.vision.datasets._fetch import read_table
from kusari.vision.datasets.cub.cub_utils import CUBDatasetBase
from kusari.vision.utils import read_image


class CUBLabelDataset(CUBDatasetBase):
    """`Caltech-UCSD Birds-200-2011 <http://www.vision.caltech.edu/visipedia/CUB-200-2011.html>`_ with class
    labels (11,788 images of 200 species).

    Parameters
    ----------
    data_dir : str
        The ``CUB_200_2011`` folder, or ``'auto'`` to download it into ``<dataset root>/cub`` the
        first time.
    return_bbox : bool
        Add the key ``bbox``: the bird's box.
    prob_map_dir : str
        The ``segmentations`` folder, or ``'auto'`` to download it into ``<dataset root>/cub`` (only
        with ``return_prob_map``).
    return_prob_map : bool
        Add the key ``prob_map``: how likely each pixel shows the bird.

    Notes
    -----
    ``img``: (3, H, W) float32, RGB in [0, 255]; ``label``: int32 scalar in [0, 199]; ``bbox``: (1, 4)
    float32 ``(y_min, x_min, y_max, x_max)``; ``prob_map``: (H, W) float32 in [0, 1].
    """

    def __init__(self, data_dir="auto", return_bbox=False, prob_map_dir="auto", return_prob_map=False):
        super().__init__(data_dir, prob_map_dir, return_prob_map)
        rows = read_table(os.path.join(self.data_dir, "image_class_labels.txt"), "CUBLabelDataset",
                          "the class labels", (int, int))
        self._labels = numpy.array([row[1] - 1 for row in rows], dtype=numpy.int32)
        self.add_getter("img", self._get_image)
        self.add_getter("label", self._get_label)
        self.keys = ("img", "label") + ("bbox",) * bool(return_bbox) + ("prob_map",) * bool(return_prob_map)

    def _get_image(self, i):
        return read_image(os.path.join(self.data_dir, "images", self.paths[i]), color=True)

    def _get_label(self, i):
        return self._labels[i]
