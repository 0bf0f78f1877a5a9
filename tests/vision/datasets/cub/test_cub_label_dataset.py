"""kusari.vision.datasets.CUBLabelDataset against ChainerCV 0.13.1 on a synthetic layout, and downloaded offline."""
import hashlib
import os

import dataset_parity
import pytest

from kusari.dataset import Checksum
from kusari.vision.datasets import CUBLabelDataset
from kusari.vision.datasets.cub import cub_utils
from kusari.vision.utils import assert_is_label_dataset


@pytest.mark.parametrize("name", dataset_parity.case_names("CUBLabelDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_is_a_label_dataset(layouts):
    assert_is_label_dataset(CUBLabelDataset(os.path.join(layouts, "cub", "CUB_200_2011")), 200)


def test_auto_fetches_the_probability_maps_only_when_asked(layouts, mirror, dataset_root, monkeypatch):
    path = dataset_parity.archive(mirror.folder / "CUB_200_2011.tgz", {
        "CUB_200_2011": os.path.join(layouts, "cub", "CUB_200_2011")})
    monkeypatch.setitem(cub_utils._CHECKSUMS, "CUB_200_2011.tgz", Checksum(hashlib.md5(open(path, "rb").read()).hexdigest(), "md5"))
    dataset_parity.archive(mirror.folder / "segmentations.tgz", {"segmentations": os.path.join(layouts, "cub", "segmentations")})
    dataset = CUBLabelDataset(return_bbox=True)
    assert {hit.rsplit("/", 1)[1] for hit in mirror.hits} == {"CUB_200_2011.tgz"}
    assert dataset.keys == ("img", "label", "bbox")
    dataset = CUBLabelDataset(return_prob_map=True)
    assert {hit.rsplit("/", 1)[1] for hit in mirror.hits} == {"CUB_200_2011.tgz", "segmentations.tgz"}
    dataset_parity.same_examples(dataset, CUBLabelDataset(os.path.join(layouts, "cub", "CUB_200_2011"), return_prob_map=True,
                                                          prob_map_dir=os.path.join(layouts, "cub", "segmentations")), "auto")
