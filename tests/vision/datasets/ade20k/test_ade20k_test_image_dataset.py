"""kusari.vision.datasets.ADE20KTestImageDataset against ChainerCV 0.13.1, and downloaded offline."""
import os

import dataset_parity
import pytest

from kusari.vision.datasets import ADE20KTestImageDataset
from kusari.vision.datasets.ade20k import ade20k_utils


@pytest.mark.parametrize("name", dataset_parity.case_names("ADE20KTestImageDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_auto_downloads_the_test_archive(layouts, mirror, monkeypatch):
    dataset_parity.archive(mirror.folder / "release_test.zip", {
        "release_test": os.path.join(layouts, "ade20k", "release_test")})
    monkeypatch.setattr(ade20k_utils, "_CHECKSUMS", {})   # the real archive's SHA-1 does not fit
    dataset_parity.same_examples(ADE20KTestImageDataset(), ADE20KTestImageDataset(os.path.join(layouts, "ade20k")), "auto")
    assert {hit.rsplit("/", 1)[1] for hit in mirror.hits} == {"release_test.zip"}
