"""kusari.vision.utils.assert_is_semantic_segmentation_link on a stub model: a semantic segmenter's predict: int32 label maps in range pass; others fail."""
import numpy
import pytest

from kusari.vision import utils


class Segmenter:
    def __init__(self, dtype=numpy.int32, high=3):
        self.dtype, self.high = dtype, high

    def predict(self, imgs):
        return [numpy.full(img.shape[1:], self.high - 1, self.dtype) for img in imgs]


def test_semantic_segmentation_link():
    utils.assert_is_semantic_segmentation_link(Segmenter(), 3)
    with pytest.raises(AssertionError, match="label must be int32, got int64"):
        utils.assert_is_semantic_segmentation_link(Segmenter(numpy.int64), 3)
    with pytest.raises(AssertionError, match=r"label values must lie in \[0, 2\]"):
        utils.assert_is_semantic_segmentation_link(Segmenter(high=4), 3)
