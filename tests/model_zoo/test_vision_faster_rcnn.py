"""kusari.model_zoo.vision_faster_rcnn: every pretrained_model= name in ChainerCV's FasterRCNNVGG16._models
resolves to the zoo entry of ChainerCV's URL (the table ChainerCV itself wrote:
tools/chainercv_fixtures/faster_rcnn.py), with its configuration."""
import json
import pathlib

import pytest

import kusari.model_zoo as zoo

TABLE = pathlib.Path(__file__).parents[1] / "vision" / "fixtures" / "faster_rcnn" / "pretrained_models.npz"


def _rows():
    import numpy
    with numpy.load(TABLE) as data:
        return json.loads(str(data["table"]))


def test_every_chainercv_url_has_an_entry():
    rows = _rows()
    assert sorted(row["name"] for row in rows) == ["voc07", "voc0712"]
    urls = {info["url"]: info for info in map(zoo.info, zoo.list())}
    for row in rows:
        info = urls[row["url"]]
        assert info["architecture"] == "kusari.vision.links:FasterRCNNVGG16"
        assert info["params"] == row["param"]
        assert info["sha256"] is None and info["no_checksum"]
        assert info["file"] == row["url"].rsplit("/", 1)[1]
        assert 0 < info["metric"]["voc2007_test_map"] < 1


@pytest.mark.parametrize("row", _rows(), ids=lambda row: row["name"])
def test_constructor_resolves_chainercv_names_to_that_entry(row, resolved_key):
    links = pytest.importorskip("kusari.vision.links")
    key = resolved_key(lambda: links.FasterRCNNVGG16(pretrained_model=row["name"]))
    assert zoo.info(key)["url"] == row["url"]
    assert resolved_key(lambda: links.FasterRCNNVGG16(pretrained_model=key)) == key
    assert resolved_key(lambda: zoo.load(key)) == key
    assert links.FasterRCNNVGG16._models[row["name"]]["cv2"] is row["cv2"] is True
