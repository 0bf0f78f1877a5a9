"""kusari.vision.transforms.crop_bbox against ChainerCV 0.13.1 (index and truncated_index), and its slices."""
import numpy
import pytest
from vision_chainercv_cases import replay

from kusari.vision import transforms

CHAINERCV_FUNCTIONS = ("transforms.crop_bbox",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


def test_slices_must_be_contiguous():
    bbox = numpy.array([[1, 2, 4, 5]], numpy.float32)
    with pytest.raises(ValueError, match=r"crop_bbox: x_slice must be None or a slice with step 1, got slice\(0, 4, 2\)"):
        transforms.crop_bbox(bbox, x_slice=slice(0, 4, 2))
