"""kusari.vision.datasets.VOCBboxDataset: against ChainerCV 0.13.1 on a synthetic VOC layout, on the real
Pascal-VOC-format raccoon annotations (../shared/data/raccoon), and downloaded offline."""
import csv
import hashlib
import os

import dataset_parity
import numpy
import pytest

from kusari.dataset import Checksum, DownloadError
from kusari.vision.datasets import VOCBboxDataset
from kusari.vision.datasets.voc import voc_utils
from kusari.vision.utils import assert_is_bbox_dataset


@pytest.mark.parametrize("name", dataset_parity.case_names("VOCBboxDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


@pytest.fixture
def raccoon(shared_data, tmp_path):
    """The raccoon set in VOC's layout: symbolic links to its images and annotations, and the fixed
    train / test split of its CSV files as ImageSets/Main/{train,val}.txt."""
    source = os.path.join(shared_data, "raccoon")
    root = tmp_path / "VOCraccoon"
    (root / "ImageSets" / "Main").mkdir(parents=True)
    for folder, target in (("JPEGImages", "images"), ("Annotations", "annotations")):
        os.symlink(os.path.join(source, target), root / folder)
    for split, table in (("train", "train_labels.csv"), ("val", "test_labels.csv")):
        with open(os.path.join(source, table)) as f:
            names = sorted({row["filename"][:-4] for row in csv.DictReader(f)}, key=lambda n: int(n.split("-")[1]))
        (root / "ImageSets" / "Main" / f"{split}.txt").write_text("".join(n + "\n" for n in names))
    return str(root), source


def test_reads_the_raccoon_annotations(raccoon):
    root, source = raccoon
    dataset = VOCBboxDataset(root, split="val", label_names=("raccoon",))
    with open(os.path.join(source, "test_labels.csv")) as f:
        rows = list(csv.DictReader(f))
    assert len(dataset) == len({row["filename"] for row in rows}) == 40
    boxes = {}
    for row in rows:   # the CSV has VOC's 1-based corners
        boxes.setdefault(row["filename"][:-4], []).append(
            [int(row["ymin"]) - 1, int(row["xmin"]) - 1, int(row["ymax"]) - 1, int(row["xmax"]) - 1])
    for i, id_ in enumerate(dataset.ids):
        bbox, label = dataset.slice[:, ("bbox", "label")][i]
        numpy.testing.assert_array_equal(numpy.sort(bbox, axis=0), numpy.sort(numpy.array(boxes[id_], numpy.float32), axis=0))
        assert label.dtype == numpy.int32 and (label == 0).all()
    assert_is_bbox_dataset(dataset, 1, n_example=5)
    img = dataset.slice[:, "img"][0]
    with open(os.path.join(source, "test_labels.csv")) as f:
        first = next(row for row in csv.DictReader(f) if row["filename"] == dataset.ids[0] + ".jpg")
    assert img.shape == (3, int(first["height"]), int(first["width"])) and img.dtype == numpy.float32


def test_the_voc_names_refuse_another_class(raccoon):
    dataset = VOCBboxDataset(raccoon[0], split="train")
    with pytest.raises(ValueError, match=r"\.xml, object 1 is of class 'raccoon', which is not one of label_names \('aeroplane'"):
        dataset[0]


def _voc2012_archive(layouts, folder):
    return dataset_parity.archive(folder / "VOCtrainval_11-May-2012.tar", {
        "VOCdevkit/VOC2012": os.path.join(layouts, "voc/VOCdevkit/VOC2012")})


def test_auto_downloads_extracts_and_then_reads_the_cache(layouts, mirror, dataset_root, monkeypatch):
    path = _voc2012_archive(layouts, mirror.folder)
    md5 = hashlib.md5(open(path, "rb").read()).hexdigest()
    monkeypatch.setitem(voc_utils._CHECKSUMS, "2012", Checksum(md5, "md5"))
    dataset = VOCBboxDataset(split="val", return_difficult=True)
    assert dataset.data_dir == os.path.join(dataset_root, "voc", "VOCdevkit", "VOC2012")
    assert sorted(os.listdir(dataset_root / "voc")) == ["VOCdevkit", "VOCtrainval_11-May-2012.tar"]   # no lock files
    dataset_parity.same_examples(dataset, VOCBboxDataset(os.path.join(layouts, "voc/VOCdevkit/VOC2012"), "val",
                                                         return_difficult=True), "auto")
    assert mirror.hits == ["/voc/VOCtrainval_11-May-2012.tar", "/VOCtrainval_11-May-2012.tar"]  # then by its name
    VOCBboxDataset(split="train")
    assert len(mirror.hits) == 2   # read from the cache


def test_auto_refuses_an_archive_that_fails_its_checksum(layouts, mirror, dataset_root):
    _voc2012_archive(layouts, mirror.folder)
    with pytest.raises(DownloadError, match=r"md5 of the file is [0-9a-f]{32}, expected 6cd6e144f989b92b3379bac3b3de84fd"):
        VOCBboxDataset()
    assert not (dataset_root / "voc" / "VOCdevkit").exists()


def test_auto_offline_says_where_to_put_the_archive(dataset_root):
    target = os.path.join(dataset_root, "voc", "VOCtest_06-Nov-2007.tar")
    with pytest.raises(DownloadError, match="Download it by hand and place it at:\n  " + target):
        VOCBboxDataset(split="test", year="2007")


def test_the_2007_test_archive_has_its_own_folder(layouts, mirror, dataset_root, monkeypatch):
    path = dataset_parity.archive(mirror.folder / "VOCtest_06-Nov-2007.tar", {
        "VOCdevkit/VOC2007": os.path.join(layouts, "voc/VOCdevkit/VOC2007_test")})
    monkeypatch.setitem(voc_utils._CHECKSUMS, "2007_test", Checksum(hashlib.md5(open(path, "rb").read()).hexdigest(), "md5"))
    dataset = VOCBboxDataset(split="test", year="2007", use_difficult=True)
    assert dataset.data_dir == os.path.join(dataset_root, "voc", "VOCdevkit", "VOC2007_test")
    assert len(dataset) == 2


def test_unknown_year_and_missing_lists(tmp_path):
    with pytest.raises(ValueError, match="get_voc: year must be '2007' or '2012', got '2010'"):
        VOCBboxDataset(year="2010")
    with pytest.raises(FileNotFoundError, match=r"ImageSets/Main/train.txt \(the ids of split 'train'\) does not exist"):
        VOCBboxDataset(str(tmp_path))


def test_missing_corners_are_named(tmp_path):
    (tmp_path / "ImageSets" / "Main").mkdir(parents=True)
    (tmp_path / "ImageSets" / "Main" / "train.txt").write_text("a\n")
    (tmp_path / "Annotations").mkdir()
    (tmp_path / "Annotations" / "a.xml").write_text(
        "<annotation><object><name>dog</name><bndbox><xmin>1</xmin><ymin>2</ymin><xmax>3</xmax></bndbox>"
        "</object></annotation>")
    with pytest.raises(ValueError, match="VOCBboxDataset: .*a.xml, object 1 lacks bndbox/ymax"):
        VOCBboxDataset(str(tmp_path)).slice[:, "bbox"][0]


def _one_annotation(tmp_path, xml):
    (tmp_path / "ImageSets" / "Main").mkdir(parents=True)
    (tmp_path / "ImageSets" / "Main" / "train.txt").write_text("a\n")
    (tmp_path / "Annotations").mkdir()
    (tmp_path / "Annotations" / "a.xml").write_text(xml)
    return VOCBboxDataset(str(tmp_path), label_names=("dog",)).slice[:, ("bbox", "label")]


def _box(ymin="2", xmin="1", ymax="4", xmax="3", difficult="0"):
    return (f"<object><name>dog</name><difficult>{difficult}</difficult><bndbox><xmin>{xmin}</xmin>"
            f"<ymin>{ymin}</ymin><xmax>{xmax}</xmax><ymax>{ymax}</ymax></bndbox></object>")


@pytest.mark.parametrize("value", ["12.5", "n/a", ""])
def test_a_coordinate_that_is_not_an_integer_is_named(tmp_path, value):
    dataset = _one_annotation(tmp_path, f"<annotation>{_box()}{_box(xmax=value)}</annotation>")
    with pytest.raises(ValueError, match=rf"^VOCBboxDataset: .*a.xml, object 2's bndbox/xmax must be an "
                                         rf"integer, got '{value}'$"):
        dataset[0]


def test_an_integral_decimal_coordinate_is_read(tmp_path):
    """Some annotation tools write '3.0'; ChainerCV's int() crashes on it."""
    bbox, label = _one_annotation(tmp_path, f"<annotation>{_box(xmax='3.0')}</annotation>")[0]
    numpy.testing.assert_array_equal(bbox, [[1, 0, 3, 2]])


def test_a_difficult_flag_that_is_not_an_integer_is_named(tmp_path):
    dataset = _one_annotation(tmp_path, f"<annotation>{_box(difficult='yes')}</annotation>")
    with pytest.raises(ValueError, match=r"a.xml, object 1's difficult must be an integer, got 'yes'"):
        dataset[0]


def test_xml_that_is_not_well_formed_is_named_with_its_line(tmp_path):
    dataset = _one_annotation(tmp_path, f"<annotation>\n{_box()}\n<object></annotation>")
    with pytest.raises(ValueError, match=r"^VOCBboxDataset: .*a.xml is not well-formed XML \(mismatched tag: "
                                         r"line 3, column \d+\)$"):
        dataset[0]


def test_a_missing_annotation_file_is_named(tmp_path):
    dataset = _one_annotation(tmp_path, "<annotation/>")
    os.remove(tmp_path / "Annotations" / "a.xml")
    with pytest.raises(FileNotFoundError, match=r"VOCBboxDataset: .*a.xml \(the annotation of id 'a'\)"):
        dataset[0]
