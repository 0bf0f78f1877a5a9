"""kusari.vision.utils.assert_is_bbox_dataset: the same verdicts as ChainerCV 0.13.1's on the recorded inputs
(AssertionError or acceptance)."""
from vision_chainercv_cases import replay

CHAINERCV_FUNCTIONS = ("utils.assert_is_bbox_dataset",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)
