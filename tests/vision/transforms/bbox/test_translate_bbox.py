"""kusari.vision.transforms.translate_bbox against ChainerCV 0.13.1."""
from vision_chainercv_cases import replay

CHAINERCV_FUNCTIONS = ("transforms.translate_bbox",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)
