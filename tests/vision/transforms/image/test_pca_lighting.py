"""kusari.vision.transforms.pca_lighting against ChainerCV 0.13.1 under the same NumPy seeds, and its input checks."""
import numpy
import pytest
from vision_chainercv_cases import replay

from kusari.vision import transforms

CHAINERCV_FUNCTIONS = ("transforms.pca_lighting",)
IMG = numpy.random.RandomState(0).uniform(0, 255, (3, 5, 6)).astype(numpy.float32)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


def test_returns_a_float32_copy():
    before = IMG.copy()
    out = transforms.pca_lighting(IMG, 25.5)
    assert out.dtype == numpy.float32 and out is not IMG
    numpy.testing.assert_array_equal(IMG, before)
    offset = out - IMG   # one offset per channel, the same at every pixel
    numpy.testing.assert_allclose(offset, numpy.broadcast_to(offset[:, :1, :1], offset.shape), atol=1e-4)


def test_refuses_integer_images_and_other_channel_counts():
    with pytest.raises(TypeError, match="pca_lighting: img must be a floating-point image, got dtype uint8"):
        transforms.pca_lighting(IMG.astype(numpy.uint8), 25.5)
    with pytest.raises(ValueError, match=r"pca_lighting: needs a 3-channel img.*img.shape=\(1, 5, 6\)"):
        transforms.pca_lighting(IMG[:1], 25.5)
