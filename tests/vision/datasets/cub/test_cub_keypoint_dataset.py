"""kusari.vision.datasets.CUBKeypointDataset against ChainerCV 0.13.1 on a synthetic layout."""
import os

import dataset_parity
import numpy
import pytest

from kusari.vision.datasets import CUBKeypointDataset
from kusari.vision.utils import assert_is_point_dataset


@pytest.mark.parametrize("name", dataset_parity.case_names("CUBKeypointDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_parts_outside_the_image_are_not_visible(layouts):
    dataset = CUBKeypointDataset(os.path.join(layouts, "cub", "CUB_200_2011"))
    assert_is_point_dataset(dataset, 15)
    img, point, visible = dataset[0]
    _, H, W = img.shape
    outside = (point[0, :, 0] > H) | (point[0, :, 1] > W) | (point[0] < 0).any(axis=1)
    assert outside.any() and not visible[0, outside].any()
    with open(os.path.join(layouts, "cub", "CUB_200_2011", "parts", "part_locs.txt")) as f:
        annotated = numpy.array([row.split()[4] == "1" for row in f if row.startswith("1 ")])
    numpy.testing.assert_array_equal(visible[0], annotated & ~outside)
