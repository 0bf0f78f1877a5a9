"""FasterRCNNFPNResNet50/101 and MaskRCNNFPNResNet50/101 against ChainerCV's fixtures; their pretrained
models."""
import json

import numpy
import pytest

import kusari
import kusari.model_zoo as zoo
import vision_fpn_parity as parity
from kusari import serializers
from kusari.model_zoo import registry
from kusari.vision.links import FasterRCNNFPNResNet50, FasterRCNNFPNResNet101, MaskRCNNFPNResNet50, \
    MaskRCNNFPNResNet101, ResNet50


@pytest.mark.parametrize("cls, name", [
    (FasterRCNNFPNResNet50, "faster_rcnn_fpn_resnet50"),
    pytest.param(FasterRCNNFPNResNet101, "faster_rcnn_fpn_resnet101", marks=pytest.mark.slow),
    (MaskRCNNFPNResNet50, "mask_rcnn_fpn_resnet50"),
    pytest.param(MaskRCNNFPNResNet101, "mask_rcnn_fpn_resnet101", marks=pytest.mark.slow),
])
def test_matches_chainercv(cls, name, tmp_path):
    parity.check_model(cls, name, tmp_path)


CLASSES = {cls.__name__: cls for cls in (FasterRCNNFPNResNet50, FasterRCNNFPNResNet101, MaskRCNNFPNResNet50,
                                         MaskRCNNFPNResNet101)}


def _table():
    return json.loads(str(parity.load("units")["pretrained/table"]))


def test_every_chainercv_url_has_an_entry():
    rows = _table()
    assert sorted((row["class"], row["name"]) for row in rows) == sorted((name, "coco") for name in CLASSES)
    urls = {info["url"]: info for info in map(zoo.info, zoo.list())}
    for row in rows:
        info = urls[row["url"]]
        assert info["architecture"] == "kusari.vision.links:" + row["class"]
        assert info["params"] == row["param"] == {"n_fg_class": 80}
        assert info["sha256"] is None and info["no_checksum"]
        assert info["file"] == row["url"].rsplit("/", 1)[1]


@pytest.mark.parametrize("row", _table(), ids=lambda row: f"{row['class']}-{row['name']}")
def test_constructor_resolves_chainercv_names_to_that_entry(row, resolved_key):
    cls = CLASSES[row["class"]]
    key = resolved_key(lambda: cls(pretrained_model=row["name"]))
    assert zoo.info(key)["url"] == row["url"]
    assert resolved_key(lambda: cls(n_fg_class=80, pretrained_model=key)) == key
    with pytest.raises(ValueError, match=rf"{row['class']}: pretrained_model='coco' was trained with "
                                         rf"n_fg_class=80, which conflicts with n_fg_class=20"):
        cls(n_fg_class=20, pretrained_model="coco")


def test_an_unknown_name_or_another_models_key_is_refused():
    with pytest.raises(ValueError, match=r"FasterRCNNFPNResNet50: pretrained_model='voc07' is neither"):
        FasterRCNNFPNResNet50(pretrained_model="voc07")
    with pytest.raises(ValueError, match=r"FasterRCNNFPNResNet50: pretrained_model='mask-rcnn-fpn-resnet50-coco' "
                                         r"holds the weights of kusari.vision.links:MaskRCNNFPNResNet50\(n_fg_class=80\)"):
        FasterRCNNFPNResNet50(pretrained_model="mask-rcnn-fpn-resnet50-coco")
    with pytest.raises(ValueError, match=r"FasterRCNNFPNResNet101: n_fg_class must be specified"):
        FasterRCNNFPNResNet101(pretrained_model="imagenet")


@pytest.mark.slow
def test_a_mask_rcnn_file_serves_a_model_that_returns_boxes_only(tmp_path):
    # ChainerCV's load ignores the mask head's weights then; they must still fit the head
    fixture = parity.load("mask_rcnn_fpn_resnet50")
    path = parity.seeded_file(fixture, tmp_path / "mask.npz")
    model = MaskRCNNFPNResNet50(n_fg_class=4, pretrained_model=path, return_values=["bboxes", "labels", "scores"])
    assert not hasattr(model, "mask_head")
    saved = {}
    serializers.DictionarySerializer(saved).save(model)
    keys = json.loads(str(fixture["keys"]))
    assert sorted(saved) == [key for key in keys if not key.startswith("mask_head/")]
    with pytest.raises(ValueError, match=r"MaskRCNNFPNResNet50: .*mask.npz does not hold the weights of this "
                                         r"architecture \(MaskRCNNFPNResNet50\): shape mismatches: .*"
                                         r"mask_head/seg/b: file \(5,\), model \(7,\)"):
        MaskRCNNFPNResNet50(n_fg_class=6, pretrained_model=path, return_values=["bboxes"])


@pytest.mark.slow
def test_a_faster_rcnn_file_lacks_the_mask_head(tmp_path):
    path = parity.seeded_file(parity.load("faster_rcnn_fpn_resnet50"), tmp_path / "faster.npz")
    with pytest.raises(ValueError, match=r"does not hold the weights of this architecture \(MaskRCNNFPNResNet50\): "
                                         r"missing keys: mask_head/conv1/conv/W"):
        MaskRCNNFPNResNet50(n_fg_class=4, pretrained_model=path)


@pytest.mark.slow
def test_imagenet_initializes_the_backbone_from_resnet_he(tmp_path, monkeypatch):
    resnet = ResNet50(arch="he", initialW=kusari.initializers.Zero())
    with kusari.using_config("train", False):
        resnet(numpy.zeros((1, 3, 32, 32), numpy.float32))
    arrays = {}
    serializers.DictionarySerializer(arrays).save(resnet)
    shapes = {key: a.shape for key, a in arrays.items() if a.dtype.kind == "f"}
    path = str(tmp_path / "resnet50_he.npz")
    numpy.savez(path, **{**arrays, **parity.seeded_weights.seeded_arrays(shapes, 3)})
    asked = []
    monkeypatch.setattr(registry, "weights_path", lambda name: asked.append(name) or path)
    model = FasterRCNNFPNResNet50(n_fg_class=3, pretrained_model="imagenet")
    assert asked == ["resnet50-he-imagenet"]
    copied = {}
    serializers.DictionarySerializer(copied).save(model.extractor.base)
    assert copied and all(key in arrays for key in copied)
    for key, array in copied.items():
        numpy.testing.assert_array_equal(array, numpy.load(path)[key], err_msg=key)
    assert model.bbox_head.fc1.W.array is None     # the heads stay random (their sizes deferred)
