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


def _annotations(tmp_path, text):
    (tmp_path / "annotations").mkdir()
    path = tmp_path / "annotations" / "instances_val2017.json"
    path.write_text(text)
    return path


def _coco(bbox=(1, 2, 3, 4), **extra):
    import json
    annotation = {"id": 7, "image_id": 1, "bbox": list(bbox), "category_id": 1, "area": 12, "iscrowd": 0}
    annotation.update(extra)
    return json.dumps({"images": [{"id": 1, "file_name": "a.jpg", "height": 5, "width": 5}],
                       "categories": [{"id": 1, "name": "dog"}], "annotations": [annotation]}, indent=1)


def test_json_that_does_not_parse_is_named_with_its_line(tmp_path):
    path = _annotations(tmp_path, _coco()[:-20])
    with pytest.raises(ValueError, match=rf"^COCOBboxDataset: {path} \(the annotations of split 'val'\) is not "
                                         r"valid JSON \(.*line \d+ column \d+"):
        COCOBboxDataset(str(tmp_path), "val")


def test_a_file_of_another_structure_is_named(tmp_path):
    path = _annotations(tmp_path, '{"images": [{"file_name": "a.jpg"}], "categories": [], "annotations": []}')
    with pytest.raises(ValueError, match=rf"^COCOBboxDataset: {path} is not COCO's instances format: reading "
                                         r"'images': KeyError 'id'$"):
        COCOBboxDataset(str(tmp_path), "val")


@pytest.mark.parametrize("change, message", [
    ({"bbox": [1, 2, "3", 4]}, r"has bbox \[1, 2, '3', 4\]; COCO's bbox is \[x, y, width, height\]"),
    ({"bbox": [1, 2, 3]}, r"has bbox \[1, 2, 3\]"),
    ({"area": None}, r"has area None, not a number"),
])
def test_a_malformed_annotation_is_named(tmp_path, change, message):
    path = _annotations(tmp_path, _coco(**change))
    dataset = COCOBboxDataset(str(tmp_path), "val")
    with pytest.raises(ValueError, match=rf"^COCOBboxDataset: {path}: annotation 7 of image 1 {message}"):
        dataset.slice[:, ("bbox", "label")][0]
