"""kusari.vision.utils.read_label against ChainerCV 0.13.1 (palette, grayscale, RGB and LA files)."""
from vision_chainercv_cases import replay

CHAINERCV_FUNCTIONS = ("utils.read_label",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)
