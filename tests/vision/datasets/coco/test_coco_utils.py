"""kusari.vision.datasets.coco.coco_utils: ChainerCV 0.13.1's constants and URLs, and get_coco offline."""
import os

import dataset_parity
import pytest

from kusari.vision.datasets import COCOBboxDataset, COCOSemanticSegmentationDataset
from kusari.vision.datasets.coco import coco_utils


@pytest.mark.parametrize("name", [n for n in dataset_parity.record()["constants"] if n.startswith("coco.")])
def test_constants_match_chainercv(name):
    dataset_parity.check_constant(name)


@pytest.fixture
def coco_archives(layouts, mirror, monkeypatch):
    """The synthetic COCO layout as COCO's archives: val2017.zip, annotations_trainval2017.zip and the
    panoptic archive (a zip holding the PNGs' zip)."""
    coco = os.path.join(layouts, "coco")
    dataset_parity.archive(mirror.folder / "val2017.zip", {"val2017": os.path.join(coco, "images", "val2017")})
    dataset_parity.archive(mirror.folder / "annotations_trainval2017.zip", {
        "annotations/instances_val2017.json": os.path.join(coco, "annotations", "instances_val2017.json")})
    inner = dataset_parity.archive(mirror.folder / "inner" / "panoptic_val2017.zip", {
        "panoptic_val2017": os.path.join(coco, "annotations", "panoptic_val2017")})
    dataset_parity.archive(mirror.folder / "panoptic_annotations_trainval2017.zip", {
        "annotations/panoptic_val2017.json": os.path.join(coco, "annotations", "panoptic_val2017.json"),
        "annotations/panoptic_val2017.zip": inner})
    monkeypatch.setattr(coco_utils, "_CHECKSUMS", {})   # the real archives' MD5s do not fit the synthetic files
    return coco


def test_auto_downloads_images_and_annotations(coco_archives, mirror, dataset_root):
    dataset = COCOBboxDataset(split="val", return_area=True)
    assert dataset.data_dir == os.path.join(dataset_root, "coco")
    dataset_parity.same_examples(dataset, COCOBboxDataset(coco_archives, "val", return_area=True), "auto")
    assert sorted(os.listdir(dataset_root / "coco" / "annotations")) == ["instances_val2017.json"]
    semantic = COCOSemanticSegmentationDataset(split="val")
    dataset_parity.same_examples(semantic, COCOSemanticSegmentationDataset(coco_archives, "val"), "auto panoptic")
    assert sorted(os.listdir(dataset_root / "coco" / "annotations")) == [
        "instances_val2017.json", "panoptic_val2017", "panoptic_val2017.json"]
    requested = {hit.rsplit("/", 1)[1] for hit in mirror.hits}
    assert requested == {"val2017.zip", "annotations_trainval2017.zip", "panoptic_annotations_trainval2017.zip"}


def test_an_archive_without_the_expected_file_is_refused(coco_archives, mirror, dataset_root):
    with pytest.raises(ValueError, match=r"get_coco: the archive .*annotations_trainval2017.zip does not hold "
                                         r"annotations/instances_train2017.json"):
        coco_utils.get_coco("train", "val", "2017", "instances")
    assert not (dataset_root / "coco" / "annotations").exists()
    assert [name for name in os.listdir(dataset_root / "coco") if name.startswith(".extracting")] == []


def test_unknown_modes_and_splits_are_refused_before_downloading(dataset_root):
    with pytest.raises(ValueError, match="mode must be 'instances' or 'panoptic', got 'stuff'"):
        coco_utils.get_coco("val", "val", "2017", "stuff")
    with pytest.raises(ValueError, match="COCO 2017 has no instance annotations for split 'minival'"):
        coco_utils.get_coco("minival", "val", "2017", "instances")
