"""kusari.vision.utils.assert_is_instance_segmentation_link on a stub model: an instance segmenter's predict: bool masks with int32 labels and float32 scores pass; others fail."""
import numpy
import pytest

from kusari.vision import utils


class InstanceSegmenter:
    def __init__(self, mask_dtype=bool, n_label=2):
        self.mask_dtype, self.n_label = mask_dtype, n_label

    def predict(self, imgs):
        masks = [numpy.zeros((2,) + img.shape[1:], self.mask_dtype) for img in imgs]
        labels = [numpy.arange(self.n_label, dtype=numpy.int32) for _ in imgs]
        scores = [numpy.ones(2, numpy.float32) for _ in imgs]
        return masks, labels, scores


def test_instance_segmentation_link():
    utils.assert_is_instance_segmentation_link(InstanceSegmenter(), 2)
    with pytest.raises(AssertionError, match="mask must be bool, got uint8"):
        utils.assert_is_instance_segmentation_link(InstanceSegmenter(numpy.uint8), 2)
    with pytest.raises(AssertionError, match=r"label must have one entry per mask \(2\), got 3"):
        utils.assert_is_instance_segmentation_link(InstanceSegmenter(n_label=3), 5)
