import numpy
import pytest

from kusari.vision.utils.mask.mask_to_bbox import mask_to_bbox


def test_matches_chainercv(utils_fixture):
    bbox = mask_to_bbox(utils_fixture["mask_to_bbox/mask"])
    assert bbox.dtype == numpy.float32
    numpy.testing.assert_array_equal(bbox, utils_fixture["mask_to_bbox/bbox"])


def test_hand_checked():
    mask = numpy.zeros((2, 5, 6), bool)
    mask[0, 1, 2] = mask[0, 3, 4] = True
    numpy.testing.assert_array_equal(mask_to_bbox(mask), [[1, 2, 4, 5], [0, 0, 0, 0]])
    assert mask_to_bbox(numpy.zeros((0, 5, 6), bool)).shape == (0, 4)


def test_bad_input():
    with pytest.raises(ValueError, match=r"mask_to_bbox: mask must have shape \(R, H, W\), got shape=\(5, 6\)"):
        mask_to_bbox(numpy.zeros((5, 6), bool))
