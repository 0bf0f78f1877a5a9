"""kusari.vision.utils.generate_random_bbox against ChainerCV 0.13.1 under the same NumPy seeds."""
from vision_chainercv_cases import replay

from kusari.vision import utils

CHAINERCV_FUNCTIONS = ("utils.generate_random_bbox",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


def test_boxes_are_valid():
    bbox = utils.generate_random_bbox(50, (32, 48), 4, 16)
    utils.assert_is_bbox(bbox, (32, 48))
    sides = bbox[:, 2:] - bbox[:, :2]
    assert ((sides >= 4) & (sides < 16 + 1e-5)).all()
