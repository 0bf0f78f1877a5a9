"""kusari.vision.transforms.center_crop against ChainerCV 0.13.1 (round-half-to-even offsets, slices returned)."""
from vision_chainercv_cases import replay

CHAINERCV_FUNCTIONS = ("transforms.center_crop",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)
