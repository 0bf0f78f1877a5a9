"""vision/raccoon_detector: the fixed split and its carved validation part, the data's bad cases, and the
quick tier end to end on real photographs."""
import os

import pytest

pytest.importorskip("cv2")

from reproductions import catalog, environment, runner  # noqa: E402
from reproductions.vision import raccoon_detector  # noqa: E402


def test_split_and_validation_part(shared_data):
    ids = raccoon_detector.split_ids(os.path.join(shared_data, "raccoon"))
    assert [len(ids[s]) for s in ("train", "test", "trainsub", "valsub")] == [160, 40, 128, 32]
    assert not set(ids["train"]) & set(ids["test"])
    # the validation part is carved from the training images only, and the rest is trained on
    assert set(ids["valsub"]) | set(ids["trainsub"]) == set(ids["train"])
    assert not set(ids["valsub"]) & set(ids["trainsub"])


def test_voc_layout_reads_as_a_detection_dataset(shared_data, tmp_path):
    root = raccoon_detector.voc_layout(str(tmp_path / "voc"), os.path.join(shared_data, "raccoon"))
    test = raccoon_detector.dataset(root, "test")
    assert len(test) == 40
    img, bbox, label, difficult = test[0]
    assert img.ndim == 3 and img.shape[0] == 3 and bbox.shape == (len(label), 4) and (label == 0).all()
    assert len(raccoon_detector.dataset(root, "train", 4)) == 4


def test_a_malformed_csv_names_file_and_line(tmp_path):
    (tmp_path / "train_labels.csv").write_text("filename,width\nraccoon-1.jpg,10\nraccoon-2,10\n")
    (tmp_path / "test_labels.csv").write_text("filename,width\n")
    with pytest.raises(ValueError, match=r"train_labels.csv line 3: filename must name a .jpg file, got 'raccoon-2'"):
        raccoon_detector.split_ids(str(tmp_path))


def test_missing_data_says_where_to_put_it(monkeypatch, tmp_path):
    monkeypatch.setenv("KUSARI_TEST_DATA", str(tmp_path))
    monkeypatch.delenv("KUSARI_DOWNLOAD_MIRROR", raising=False)
    monkeypatch.setattr(environment, "REPO_ROOT", str(tmp_path / "repo"))
    with pytest.raises(FileNotFoundError, match="raccoon data set is in none of .*datitran/raccoon_dataset"):
        raccoon_detector.raccoon_dir()


def test_declaration():
    repro = catalog.get("vision/raccoon_detector")
    assert repro.zoo_name == "faster-rcnn-small-raccoon" and repro.budget_unit == "iterations"
    assert repro.target.value == 0.5 and repro.target.direction == "higher"
    assert "no published number" in repro.target.citation
    assert repro.bound("full") == 0.5 and repro.bound("quick") == 0.3


@pytest.mark.slow
def test_quick_tier_fits_what_it_saw(shared_data, monkeypatch, tmp_path):
    monkeypatch.setenv("KUSARI_TEST_DATA", shared_data)
    result = runner.run(catalog.get("vision/raccoon_detector"), "quick", 1, out=str(tmp_path / "out"),
                        work=str(tmp_path / "work"))
    assert result["passed"] and result["values"][0] >= 0.3
