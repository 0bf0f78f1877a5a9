"""kusari.vision.datasets.ADE20KSemanticSegmentationDataset against ChainerCV 0.13.1 on a synthetic layout, and
downloaded offline."""
import hashlib
import os

import dataset_parity
import pytest

from kusari.dataset import Checksum
from kusari.vision.datasets import ADE20KSemanticSegmentationDataset
from kusari.vision.datasets.ade20k import ade20k_utils
from kusari.vision.utils import assert_is_semantic_segmentation_dataset


@pytest.mark.parametrize("name", dataset_parity.case_names("ADE20KSemanticSegmentationDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_is_a_semantic_segmentation_dataset(layouts):
    assert_is_semantic_segmentation_dataset(ADE20KSemanticSegmentationDataset(os.path.join(layouts, "ade20k")), 150)


def test_auto_checks_the_sha1_and_extracts(layouts, mirror, dataset_root, monkeypatch):
    path = dataset_parity.archive(mirror.folder / "ADEChallengeData2016.zip", {
        "ADEChallengeData2016": os.path.join(layouts, "ade20k", "ADEChallengeData2016")})
    sha1 = hashlib.sha1(open(path, "rb").read()).hexdigest()
    monkeypatch.setitem(ade20k_utils._CHECKSUMS, "ADEChallengeData2016.zip", Checksum(sha1, "sha1"))
    dataset = ADE20KSemanticSegmentationDataset(split="val")
    dataset_parity.same_examples(dataset, ADE20KSemanticSegmentationDataset(os.path.join(layouts, "ade20k"), "val"), "auto")
    assert (dataset_root / "ade20k" / "ADEChallengeData2016" / "images" / "validation").is_dir()


def test_a_missing_folder_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"ADEChallengeData2016/images/training \(the images of split 'train'\)"):
        ADE20KSemanticSegmentationDataset(str(tmp_path))


def test_images_and_labels_of_different_names_are_not_paired(tmp_path):
    """Equal counts, but one image lacks its label and one label its image."""
    images = tmp_path / "ADEChallengeData2016" / "images" / "training"
    labels = tmp_path / "ADEChallengeData2016" / "annotations" / "training"
    images.mkdir(parents=True)
    labels.mkdir(parents=True)
    for name in ("ADE_train_1", "ADE_train_2"):
        (images / f"{name}.jpg").write_bytes(b"")
    for name in ("ADE_train_1", "ADE_train_3"):
        (labels / f"{name}.png").write_bytes(b"")
    with pytest.raises(ValueError, match=rf"^ADE20KSemanticSegmentationDataset: the image {images}/ADE_train_2.jpg "
                                         r"has no label file of its name in .* \(sorted, it meets ADE_train_3.png\)"):
        ADE20KSemanticSegmentationDataset(str(tmp_path), "train")
