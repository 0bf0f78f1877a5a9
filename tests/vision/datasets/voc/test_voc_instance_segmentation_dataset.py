"""kusari.vision.datasets.VOCInstanceSegmentationDataset against ChainerCV 0.13.1 on a synthetic VOC layout."""
import dataset_parity
import pytest

from kusari.vision.datasets import VOCInstanceSegmentationDataset
from kusari.vision.utils import assert_is_instance_segmentation_dataset


@pytest.mark.parametrize("name", dataset_parity.case_names("VOCInstanceSegmentationDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_is_an_instance_segmentation_dataset(layouts):
    assert_is_instance_segmentation_dataset(
        VOCInstanceSegmentationDataset(layouts + "/voc/VOCdevkit/VOC2012", "trainval"), 20)
