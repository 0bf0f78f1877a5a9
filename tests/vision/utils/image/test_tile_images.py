"""kusari.vision.utils.tile_images against ChainerCV 0.13.1 (columns, paddings, fills, dtypes), and bad input."""
import numpy
import pytest
from vision_chainercv_cases import replay

from kusari.vision import utils

CHAINERCV_FUNCTIONS = ("utils.tile_images",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


def test_bad_input():
    with pytest.raises(ValueError, match=r"tile_images: imgs must be a \(B, C, H, W\) array, got shape=\(3, 4, 5\)"):
        utils.tile_images(numpy.zeros((3, 4, 5)), 2)
    with pytest.raises(ValueError, match="tile_images: n_col must be a positive int, got 0"):
        utils.tile_images(numpy.zeros((2, 3, 4, 5)), 0)
