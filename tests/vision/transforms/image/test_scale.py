"""kusari.vision.transforms.scale against ChainerCV 0.13.1 (fit_short either way, both backends)."""
from vision_chainercv_cases import replay

CHAINERCV_FUNCTIONS = ("transforms.scale",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)
