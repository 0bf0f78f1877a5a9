"""kusari.vision.datasets.COCOSemanticSegmentationDataset against ChainerCV 0.13.1 on synthetic panoptic annotations."""
import json
import os

import dataset_parity
import numpy
import pytest

from kusari.vision.datasets import COCOSemanticSegmentationDataset
from kusari.vision.utils import assert_is_semantic_segmentation_dataset


@pytest.mark.parametrize("name", dataset_parity.case_names("COCOSemanticSegmentationDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_unlabelled_pixels_and_labels(layouts):
    dataset = COCOSemanticSegmentationDataset(os.path.join(layouts, "coco"), "val")
    assert_is_semantic_segmentation_dataset(dataset, 4)
    with open(os.path.join(layouts, "coco", "annotations", "panoptic_val2017.json")) as f:
        annotation = json.load(f)["annotations"][0]
    label = dataset.slice[:, "label"][0]
    assert (label == -1).any()
    assert set(numpy.unique(label[label >= 0]).tolist()) <= {0, 1, 2, 3}
    assert len(numpy.unique(label)) <= len(annotation["segments_info"]) + 1
