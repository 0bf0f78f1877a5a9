"""kusari.model_zoo.vision_segmentation: every pretrained_model= name ChainerCV accepts for the semantic
segmentation models resolves to the zoo entry of ChainerCV's URL (the table ChainerCV itself wrote:
tools/chainercv_fixtures/segmentation.py), and a file served by KUSARI_DOWNLOAD_MIRROR loads offline."""
import json
import pathlib

import numpy
import pytest

import kusari
import kusari.model_zoo as zoo
from kusari.model_zoo import registry

TABLE = pathlib.Path(__file__).parents[1] / "vision" / "fixtures" / "segmentation" / "pretrained_models.npz"
ARCHITECTURES = {"SegNetBasic": "kusari.vision.links:SegNetBasic",
                 "DeepLabV3plusXception65": "kusari.vision.links:DeepLabV3plusXception65",
                 "PSPNetResNet50": "kusari.vision.experimental.links:PSPNetResNet50",
                 "PSPNetResNet101": "kusari.vision.experimental.links:PSPNetResNet101",
                 "DilatedResNet": "kusari.vision.experimental.links.model.pspnet.pspnet:DilatedResNet"}


def _rows():
    with numpy.load(TABLE) as data:
        return json.loads(str(data["table"]))


def _id(row):
    return f"{row['class']}{row['kwargs']}-{row['name']}"


def _class(name):
    pytest.importorskip("cv2")
    module, attr = ARCHITECTURES[name].split(":")
    return getattr(__import__(module, fromlist=[attr]), attr)


def _jsonable(value):
    return json.loads(json.dumps(value))


def test_every_chainercv_url_has_an_entry():
    rows = _rows()
    assert len(rows) == 10
    urls = {info["url"]: info for info in map(zoo.info, zoo.list())}
    for row in rows:
        info = urls[row["url"]]
        assert info["architecture"] == ARCHITECTURES[row["class"]]
        assert _jsonable(info["params"]) == dict(row["param"], **row["kwargs"])
        assert info["sha256"] is None and info["no_checksum"]
        assert info["file"] == row["url"].rsplit("/", 1)[1]


@pytest.mark.parametrize("row", _rows(), ids=_id)
def test_constructor_resolves_chainercv_names_to_that_entry(row, resolved_key):
    cls = _class(row["class"])
    key = resolved_key(lambda: cls(pretrained_model=row["name"], **row["kwargs"]))
    assert zoo.info(key)["url"] == row["url"]
    assert resolved_key(lambda: cls(pretrained_model=key, **row["kwargs"])) == key
    assert resolved_key(lambda: zoo.load(key)) == key
    # ChainerCV's table: the configuration, what may be overwritten, the OpenCV warning
    models = cls._models[row["kwargs"]["n_layer"]] if row["class"] == "DilatedResNet" else cls._models
    model = models[row["name"]]
    assert _jsonable(model.get("param", {})) == row["param"]
    assert sorted(model.get("overwritable", ())) == row["overwritable"]
    assert model.get("cv2", False) == row["cv2"]
    if "n_class" in row["param"]:
        with pytest.raises(ValueError, match=f"was trained with n_class={row['param']['n_class']}, which "
                                             f"conflicts with n_class=3"):
            cls(pretrained_model=row["name"], n_class=3)
    if row["overwritable"]:
        assert row["overwritable"] == ["flip", "scales"]
        assert resolved_key(lambda: cls(pretrained_model=row["name"], scales=(0.5, 1.0), flip=True)) == key


@pytest.mark.parametrize("cls_name, key", [("PSPNetResNet50", "pspnet-dilated-resnet50-imagenet"),
                                           ("PSPNetResNet101", "pspnet-dilated-resnet101-imagenet")])
def test_pspnet_imagenet_loads_the_extractor_weights(cls_name, key, resolved_key):
    cls = _class(cls_name)
    assert resolved_key(lambda: cls(n_class=3, pretrained_model="imagenet")) == key
    assert resolved_key(lambda: cls(n_class=3, pretrained_model=key)) == key


def test_dilated_resnet_warns_without_opencv_resize(monkeypatch):
    """ChainerCV trained the ImageNet extractors with OpenCV's resize: a warning when resize uses Pillow."""
    cls = _class("DilatedResNet")
    monkeypatch.setattr(registry, "weights_path", lambda name: "")   # nothing is loaded
    with kusari.using_config("cv_resize_backend", "PIL"):
        with pytest.warns(RuntimeWarning, match="DilatedResNet: the pretrained model was trained with cv2"):
            cls(50, pretrained_model="imagenet")


def test_a_mirrored_file_loads_offline(tmp_path, monkeypatch):
    """SegNetBasic(pretrained_model='camvid') takes ChainerCV's file from KUSARI_DOWNLOAD_MIRROR (here a file
    that kusari wrote in ChainerCV's layout), caches it under KUSARI_HOME/models and predicts as the model
    that wrote it."""
    cls = _class("SegNetBasic")
    source = cls(n_class=11)
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 20, 24)).astype(numpy.float32)
    expected, = source.predict([img])
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    kusari.serializers.save_npz(str(mirror / zoo.info("segnet-basic-camvid")["file"]), source)
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", str(mirror))
    monkeypatch.setenv("KUSARI_HOME", str(tmp_path / "home"))
    model = cls(pretrained_model="camvid")
    assert model.n_class == 11
    assert (tmp_path / "home" / "models" / "segnet_camvid_trained_2018_12_05.npz").is_file()
    numpy.testing.assert_array_equal(model.predict([img])[0], expected)


@pytest.mark.slow
@pytest.mark.parametrize("row", [row for row in _rows() if row["class"] != "DilatedResNet"], ids=_id)
def test_constructor_takes_the_pretrained_configuration(row, monkeypatch):
    """Built for a ChainerCV name (the file itself is not loaded here), the model has ChainerCV's
    configuration for it."""
    monkeypatch.setattr(registry, "weights_path", lambda name: "")
    model = _class(row["class"])(pretrained_model=row["name"])
    param = row["param"]
    n_class = model.decoder.conv_logits.out_channels if "min_input_size" in param else model.n_class
    assert n_class == param["n_class"]
    if "input_size" in param:
        assert list(model.input_size) == param["input_size"]
    if "min_input_size" in param:
        assert list(model.min_input_size) == param["min_input_size"]
        assert list(model.scales) == param["scales"] and model.flip == param["flip"]
        assert model.feature_extractor.entryflow_conv1.bn.eps == 1e-3
        assert model.aspp.proj.bn.eps == 1e-5 and model.decoder.conv1.dw_bn.decay == 0.9997
