"""kusari.vision.datasets.SBDInstanceSegmentationDataset against ChainerCV 0.13.1 on a synthetic SBD layout, and
downloaded offline."""
import os

import dataset_parity
import pytest

from kusari.vision.datasets import SBDInstanceSegmentationDataset
from kusari.vision.datasets.sbd import sbd_utils
from kusari.vision.utils import assert_is_instance_segmentation_dataset


@pytest.mark.parametrize("name", dataset_parity.case_names("SBDInstanceSegmentationDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_is_an_instance_segmentation_dataset(layouts):
    assert_is_instance_segmentation_dataset(
        SBDInstanceSegmentationDataset(os.path.join(layouts, "sbd/benchmark_RELEASE/dataset"), "trainval"), 20)


def test_auto_downloads_the_archive_and_the_voc2012_training_list(layouts, tmp_path, mirror, dataset_root, monkeypatch):
    source = dataset_parity.copy_layout(layouts, "sbd", tmp_path / "dataset")
    for split in ("train", "val", "trainval"):   # made by get_sbd, not shipped in the archive
        os.remove(os.path.join(source, f"{split}_voc2012.txt"))
    dataset_parity.archive(mirror.folder / "benchmark.tgz", {"benchmark_RELEASE/dataset": source})
    os.symlink(os.path.join(layouts, "sbd", "train_noval.txt"), mirror.folder / "train_noval.txt")
    monkeypatch.setattr(sbd_utils, "_CHECKSUMS", {})   # the real archive's MD5s do not fit the synthetic files
    dataset = SBDInstanceSegmentationDataset(split="val")
    assert dataset.ids == dataset_parity.record()["sbd_lists"]["val"]
    dataset_parity.same_examples(dataset, SBDInstanceSegmentationDataset(
        os.path.join(layouts, "sbd/benchmark_RELEASE/dataset"), "val"), "auto")
    assert sorted(os.listdir(dataset_root / "sbd")) == [   # no lock files left behind
        "benchmark.tgz", "benchmark_RELEASE", "train_noval.txt"]


def test_refuses_other_splits():
    with pytest.raises(ValueError, match="split must be 'train', 'trainval' or 'val', got 'test'"):
        SBDInstanceSegmentationDataset("anywhere", "test")


@pytest.mark.parametrize("damage", ["truncated", "another field", "missing"])
def test_a_damaged_matlab_file_is_named(tmp_path, damage):
    import numpy
    import scipy.io
    (tmp_path / "cls").mkdir()
    (tmp_path / "inst").mkdir()
    (tmp_path / "train_voc2012.txt").write_text("a\n")
    segmentation = numpy.zeros((4, 5), numpy.uint8)
    scipy.io.savemat(tmp_path / "cls" / "a.mat", {"GTcls": {"Segmentation": segmentation}})
    path = tmp_path / "cls" / "a.mat"
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:200])
    elif damage == "another field":
        scipy.io.savemat(path, {"GT": {"Segmentation": segmentation}})
    else:
        path.unlink()
    dataset = SBDInstanceSegmentationDataset(str(tmp_path), "train")
    error = FileNotFoundError if damage == "missing" else ValueError
    message = (r"\(the GTcls of id 'a'\) does not exist" if damage == "missing"
               else r"is not a readable SBD MATLAB file with GTcls.Segmentation")
    with pytest.raises(error, match=rf"^SBDInstanceSegmentationDataset: {path} {message}"):
        dataset.slice[:, "label"][0]
