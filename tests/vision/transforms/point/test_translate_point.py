"""kusari.vision.transforms.translate_point against ChainerCV 0.13.1 (arrays and lists; float64 offsets rounded as NumPy 1 did)."""
from vision_chainercv_cases import replay

CHAINERCV_FUNCTIONS = ("transforms.translate_point",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)
