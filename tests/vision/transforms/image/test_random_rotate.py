"""kusari.vision.transforms.random_rotate against ChainerCV 0.13.1 under the same NumPy seeds, and its
deprecation warning."""
import numpy
import pytest
from vision_chainercv_cases import replay

from kusari.vision import transforms

CHAINERCV_FUNCTIONS = ("transforms.random_rotate",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


def test_is_deprecated_as_in_chainercv():
    with pytest.warns(DeprecationWarning, match="random_rotate is deprecated"):
        transforms.random_rotate(numpy.zeros((3, 4, 5), numpy.float32))
