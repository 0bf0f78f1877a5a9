"""kusari.vision.datasets.VOCSemanticSegmentationDataset against ChainerCV 0.13.1 on a synthetic VOC layout."""
import dataset_parity
import numpy
import pytest

from kusari.vision.datasets import VOCSemanticSegmentationDataset
from kusari.vision.utils import assert_is_semantic_segmentation_dataset


@pytest.mark.parametrize("name", dataset_parity.case_names("VOCSemanticSegmentationDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_is_a_semantic_segmentation_dataset(layouts):
    dataset = VOCSemanticSegmentationDataset(layouts + "/voc/VOCdevkit/VOC2012", "trainval")
    assert_is_semantic_segmentation_dataset(dataset, 21)
    labels = numpy.concatenate([label.ravel() for label in dataset.slice[:, "label"]])
    assert -1 in labels and 255 not in labels   # the boundary pixels are ignored


def test_refuses_other_splits():
    with pytest.raises(ValueError, match="VOCSemanticSegmentationDataset: split must be 'train', 'trainval' or 'val', got 'test'"):
        VOCSemanticSegmentationDataset("anywhere", "test")
