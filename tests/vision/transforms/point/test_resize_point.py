"""kusari.vision.transforms.resize_point against ChainerCV 0.13.1 (arrays and lists of arrays)."""
from vision_chainercv_cases import replay

CHAINERCV_FUNCTIONS = ("transforms.resize_point",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)
