"""kusari.vision.transforms.random_expand against ChainerCV 0.13.1 under the same seeds."""
from vision_chainercv_cases import replay

CHAINERCV_FUNCTIONS = ("transforms.random_expand",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)
