"""kusari.model_zoo.vision_detection: every pretrained_model= name ChainerCV accepts for SSD300, SSD512,
YOLOv2, YOLOv2Tiny and YOLOv3 resolves to the zoo entry of ChainerCV's URL (the table ChainerCV itself wrote:
tools/chainercv_fixtures/ssd_yolo.py)."""
import json
import pathlib

import pytest

import kusari
import kusari.model_zoo as zoo
from kusari.model_zoo import registry

TABLE = pathlib.Path(__file__).parents[1] / "vision" / "fixtures" / "ssd_yolo" / "pretrained_models.npz"


def _rows():
    import numpy
    with numpy.load(TABLE) as data:
        return json.loads(str(data["table"]))


def _class(name):
    pytest.importorskip("kusari.vision")
    import kusari.vision as chainercv
    return getattr(chainercv.links, name, None) or getattr(chainercv.experimental.links, name)


def test_every_chainercv_url_has_an_entry():
    rows = _rows()
    assert sorted((row["class"], row["name"]) for row in rows) == [
        ("SSD300", "imagenet"), ("SSD300", "voc0712"), ("SSD512", "imagenet"), ("SSD512", "voc0712"),
        ("YOLOv2", "voc0712"), ("YOLOv2Tiny", "voc0712"), ("YOLOv3", "voc0712")]
    for row in rows:
        infos = [info for info in map(zoo.info, zoo.list()) if info["url"] == row["url"]
                 and info["architecture"].endswith(":" + row["class"])]
        assert len(infos) == 1, row
        info = infos[0]
        assert info["params"] == row["param"]
        assert info["sha256"] is None and info["no_checksum"]
        assert info["file"] == row["url"].rsplit("/", 1)[1]
        assert row["cv2"] and row["overwritable"] == []


@pytest.mark.parametrize("row", _rows(), ids=lambda row: f"{row['class']}-{row['name']}")
def test_constructor_resolves_chainercv_names_to_that_entry(row, resolved_key):
    cls = _class(row["class"])
    n_fg_class = row["param"].get("n_fg_class")
    given = {} if n_fg_class else {"n_fg_class": 7}     # 'imagenet' fixes no n_fg_class
    key = resolved_key(lambda: cls(pretrained_model=row["name"], **given))
    assert zoo.info(key)["url"] == row["url"]
    assert resolved_key(lambda: cls(pretrained_model=key, **given)) == key
    if n_fg_class:
        assert resolved_key(lambda: zoo.load(key)) == key
        assert resolved_key(lambda: cls(pretrained_model=row["name"], n_fg_class=n_fg_class)) == key
        with pytest.raises(ValueError, match=f"was trained with n_fg_class={n_fg_class}, which conflicts with "
                                             f"n_fg_class={n_fg_class + 1}"):
            cls(pretrained_model=row["name"], n_fg_class=n_fg_class + 1)


@pytest.mark.parametrize("cls_name", ["SSD300", "SSD512"])
def test_imagenet_needs_n_fg_class_before_the_download(cls_name, resolved_key):
    with pytest.raises(ValueError, match=f"{cls_name}: n_fg_class must be specified with "
                                         f"pretrained_model='imagenet' \\(the VGG-16 base only\\)"):
        _class(cls_name)(pretrained_model="imagenet")


def test_pil_resizing_warns_for_weights_trained_with_opencv(monkeypatch):
    monkeypatch.setattr(registry, "weights_path", lambda name: "")    # the file is not loaded here
    cls = _class("YOLOv2")
    with kusari.using_config("cv_resize_backend", "PIL"):
        with pytest.warns(RuntimeWarning, match="YOLOv2: the pretrained model was trained with cv2"):
            model = cls(pretrained_model="voc0712")
    assert model.n_fg_class == 20
