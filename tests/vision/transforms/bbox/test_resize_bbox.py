"""kusari.vision.transforms.resize_bbox against ChainerCV 0.13.1 (float32 arithmetic as NumPy 1 did it)."""
from vision_chainercv_cases import replay

CHAINERCV_FUNCTIONS = ("transforms.resize_bbox",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)
