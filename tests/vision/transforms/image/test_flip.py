"""kusari.vision.transforms.flip against ChainerCV 0.13.1, and its view / copy semantics."""
import numpy
from vision_chainercv_cases import replay

from kusari.vision import transforms

CHAINERCV_FUNCTIONS = ("transforms.flip",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


def test_view_unless_copy():
    img = numpy.zeros((3, 4, 5), numpy.float32)
    assert numpy.shares_memory(transforms.flip(img, x_flip=True), img)
    assert not numpy.shares_memory(transforms.flip(img, x_flip=True, copy=True), img)
