"""kusari.vision.utils.assert_is_bbox: the same verdicts as ChainerCV 0.13.1's on the recorded inputs
(AssertionError or acceptance)."""
import numpy
import pytest
from vision_chainercv_cases import replay

from kusari.vision import utils

CHAINERCV_FUNCTIONS = ("utils.assert_is_bbox",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


def test_message_names_the_row():
    bbox = numpy.array([[0, 0, 2, 2], [3, 1, 2, 4]], numpy.float32)
    with pytest.raises(AssertionError, match=r"assert_is_bbox: y_min must be less than y_max, not so in row \[1\]"):
        utils.assert_is_bbox(bbox)
