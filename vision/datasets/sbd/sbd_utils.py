"""The Semantic Boundaries Dataset (SBD): its archive, the VOC 2012 split lists made from it, and its label names."""
import os
import shutil

from kusari.dataset import Checksum
from kusari.vision.datasets._fetch import fetch_archive, fetch_file
from kusari.vision.datasets.voc.voc_utils import voc_instance_segmentation_label_names

url = "http://www.eecs.berkeley.edu/Research/Projects/CS/vision/grouping/semantic_contours/benchmark.tgz"
train_voc2012_url = "http://home.bharathh.info/pubs/codes/SBD/train_noval.txt"

# MD5s as torchvision checks them (torchvision/datasets/sbd.py); ChainerCV published none.
_CHECKSUMS = {
    "benchmark.tgz": Checksum("82b4d87ceb2ed10f6038a1cba92111cb", "md5"),
    "train_noval.txt": Checksum("79bff800c5f0b1ec6b21080a3c066722", "md5"),
}

_FOLDER = "benchmark_RELEASE/dataset"


def _ids(path: str) -> list:
    with open(path) as f:
        return [line.strip() for line in f.read().splitlines() if line.strip()]


def _write_ids(path: str, ids) -> None:
    with open(path, "w") as f:
        f.write("\n".join(sorted(ids)))


def generate_voc2012_txt(base_path: str, train_voc2012_file: str) -> None:
    """Write ``train_voc2012.txt`` (SBD's training images that are not in VOC 2012's segmentation
    validation set, ``train_voc2012_file``), ``val_voc2012.txt`` (the other SBD images) and
    ``trainval_voc2012.txt`` (all of them) into ``base_path``, SBD's ``dataset`` folder."""
    all_ids = set(_ids(os.path.join(base_path, "train.txt"))) | set(_ids(os.path.join(base_path, "val.txt")))
    shutil.copyfile(train_voc2012_file, os.path.join(base_path, "train_voc2012.txt"))
    _write_ids(os.path.join(base_path, "val_voc2012.txt"), all_ids - set(_ids(train_voc2012_file)))
    _write_ids(os.path.join(base_path, "trainval_voc2012.txt"), all_ids)


def get_sbd() -> str:
    """SBD's ``dataset`` folder (``<dataset root>/sbd/benchmark_RELEASE/dataset``) with the VOC 2012 split
    lists, downloaded and made the first time."""
    train_noval = fetch_file("sbd", train_voc2012_url, verify=_CHECKSUMS.get("train_noval.txt"))
    directory = fetch_archive(
        "sbd", url, {_FOLDER: _FOLDER}, "get_sbd", verify=_CHECKSUMS.get("benchmark.tgz"),
        finish=lambda folder: generate_voc2012_txt(os.path.join(folder, *_FOLDER.split("/")), train_noval))
    return os.path.join(directory, *_FOLDER.split("/"))


sbd_instance_segmentation_label_names = voc_instance_segmentation_label_names
