"""kusari.vision.datasets.sbd.sbd_utils: the VOC 2012 split lists and the constants, against ChainerCV 0.13.1."""
import os

import dataset_parity
import pytest

from kusari.vision.datasets.sbd import sbd_utils


@pytest.mark.parametrize("name", [n for n in dataset_parity.record()["constants"] if n.startswith("sbd.")])
def test_constants_match_chainercv(name):
    dataset_parity.check_constant(name)


def test_the_voc2012_lists_match_chainercv(layouts, tmp_path):
    base = dataset_parity.copy_layout(layouts, "sbd", tmp_path / "dataset")
    sbd_utils.generate_voc2012_txt(base, os.path.join(layouts, "sbd", "train_noval.txt"))
    for split, ids in dataset_parity.record()["sbd_lists"].items():
        with open(os.path.join(base, f"{split}_voc2012.txt")) as f:
            assert [line.strip() for line in f] == ids, split
