"""kusari.vision.datasets.COCOBboxDataset against ChainerCV 0.13.1 on a synthetic COCO layout."""
import os

import dataset_parity
import pytest

from kusari.vision.datasets import COCOBboxDataset
from kusari.vision.utils import assert_is_bbox_dataset


@pytest.mark.parametrize("name", dataset_parity.case_names("COCOBboxDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_is_a_bbox_dataset(layouts):
    assert_is_bbox_dataset(COCOBboxDataset(os.path.join(layouts, "coco"), "val"), 4)


def test_a_missing_annotation_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"instances_train2014.json \(the annotations of split 'train'\) does not exist"):
        COCOBboxDataset(str(tmp_path), year="2014")
