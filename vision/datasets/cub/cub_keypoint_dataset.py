"""CUBKeypointDataset: the CUB-200-2011 bird images with the 15 annotated body parts."""
import os

import numpy

from kusari.vision.datasets._fetch import read_table
from kusari.vision.datasets.cub.cub_utils import CUBDatasetBase
from kusari.vision.utils import read_image


class CUBKeypointDataset(CUBDatasetBase):
    """`Caltech-UCSD Birds-200-2011 <http://www.vision.caltech.edu/visipedia/CUB-200-2011.html>`_ with the
    locations of 15 parts (``parts/part_locs.txt``).

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
    ``img``: (3, H, W) float32, RGB in [0, 255]; ``point``: (1, 15, 2) float32 ``(y, x)``; ``visible``:
    (1, 15) bool (a part annotated outside the image is not visible); ``bbox``: (1, 4) float32;
    ``prob_map``: (H, W) float32 in [0, 1].
    """

    def __init__(self, data_dir="auto", return_bbox=False, prob_map_dir="auto", return_prob_map=False):
        super().__init__(data_dir, prob_map_dir, return_prob_map)
        rows = read_table(os.path.join(self.data_dir, "parts", "part_locs.txt"), "CUBKeypointDataset",
                          "the part locations", (int, int, float, float, int))
        self._point_dict = {}
        self._visible_dict = {}
        for image_id, _, x, y, visible in rows:
            i = image_id - 1
            self._point_dict.setdefault(i, []).append((y, x))
            self._visible_dict.setdefault(i, []).append(bool(visible))
        self.add_getter(("img", "point", "visible"), self._get_img_and_annotations)
        self.keys = ("img", "point", "visible") + ("bbox",) * bool(return_bbox) + ("prob_map",) * bool(return_prob_map)

    def _get_img_and_annotations(self, i):
        img = read_image(os.path.join(self.data_dir, "images", self.paths[i]), color=True)
        point = numpy.array(self._point_dict.get(i, []), dtype=numpy.float32).reshape(-1, 2)
        visible = numpy.array(self._visible_dict.get(i, []), dtype=bool)
        _, H, W = img.shape
        visible &= ~((point[:, 0] > H) | (point[:, 1] > W) | (point < 0).any(axis=1))
        return img, point[None], visible[None]
