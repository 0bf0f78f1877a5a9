"""kusari.vision.datasets.CityscapesSemanticSegmentationDataset against ChainerCV 0.13.1 on a synthetic layout."""
import os

import dataset_parity
import numpy
import pytest

from kusari.vision.datasets import CityscapesSemanticSegmentationDataset
from kusari.vision.utils import assert_is_semantic_segmentation_dataset


@pytest.mark.parametrize("name", dataset_parity.case_names("CityscapesSemanticSegmentationDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_train_ids_and_ignored_classes(layouts):
    fine = CityscapesSemanticSegmentationDataset(os.path.join(layouts, "cityscapes"), "fine")
    raw = CityscapesSemanticSegmentationDataset(os.path.join(layouts, "cityscapes"), "fine", ignore_labels=False)
    assert_is_semantic_segmentation_dataset(fine, 19)
    label, ids = fine.slice[:, "label"][0], raw.slice[:, "label"][0]
    numpy.testing.assert_array_equal(label[ids == 7], 0)       # road
    numpy.testing.assert_array_equal(label[ids == 33], 18)     # bicycle
    assert (label[(ids <= 6) | (ids == 9) | (ids == 255)] == -1).all()


def test_the_split_is_a_folder_not_a_substring_of_the_path(layouts, tmp_path):
    root = dataset_parity.copy_layout(layouts, "cityscapes", tmp_path / "trainval_copy")
    assert len(CityscapesSemanticSegmentationDataset(root, "fine", "val")) == 2


def test_missing_data_says_where_to_put_it(tmp_path, dataset_root):
    with pytest.raises(FileNotFoundError, match=r"Cityscapes is not at .*dataset_root/cityscapes .*unpack leftImg8bit and gtFine"):
        CityscapesSemanticSegmentationDataset(label_resolution="fine")
    with pytest.raises(ValueError, match="label_resolution must be 'fine' or 'coarse', got None"):
        CityscapesSemanticSegmentationDataset(str(tmp_path))
