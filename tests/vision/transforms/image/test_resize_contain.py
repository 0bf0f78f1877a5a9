"""kusari.vision.transforms.resize_contain against ChainerCV 0.13.1 (both backends, scalar / per-channel fills, returned params)."""
from vision_chainercv_cases import replay

CHAINERCV_FUNCTIONS = ("transforms.resize_contain",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)
