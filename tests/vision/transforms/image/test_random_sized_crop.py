"""kusari.vision.transforms.random_sized_crop against ChainerCV 0.13.1 under the same seeds, its ten-miss fallback included."""
from vision_chainercv_cases import replay

CHAINERCV_FUNCTIONS = ("transforms.random_sized_crop",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)
