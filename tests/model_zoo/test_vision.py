"""kusari.model_zoo.vision: every pretrained_model= name ChainerCV accepts for the classifiers resolves to the
zoo entry of ChainerCV's URL (the table ChainerCV itself wrote: tools/chainercv_fixtures/classification.py)."""
import json
import pathlib

import numpy
import pytest

import kusari.model_zoo as zoo
from kusari.model_zoo import registry

TABLE = pathlib.Path(__file__).parents[1] / "vision" / "fixtures" / "classification" / "pretrained_models.npz"


def _rows():
    with numpy.load(TABLE) as data:
        return json.loads(str(data["table"]))


def _id(row):
    return f"{row['class']}{row['kwargs']}-{row['name']}"


def test_every_chainercv_url_has_an_entry():
    rows = _rows()
    assert len(rows) == 14
    urls = {info["url"]: info for info in map(zoo.info, zoo.list())}
    for row in rows:
        info = urls[row["url"]]
        assert info["architecture"] == "kusari.vision.links:" + row["class"]
        assert info["params"]["n_class"] == row["n_class"]
        assert all(info["params"][k] == v for k, v in row["kwargs"].items())
        assert info["sha256"] is None and info["no_checksum"]
        assert info["file"] == row["url"].rsplit("/", 1)[1]


@pytest.mark.parametrize("row", _rows(), ids=_id)
def test_constructor_resolves_chainercv_names_to_that_entry(row, resolved_key):
    links = pytest.importorskip("kusari.vision.links")
    cls = getattr(links, row["class"])
    key = resolved_key(lambda: cls(pretrained_model=row["name"], **row["kwargs"]))
    assert zoo.info(key)["url"] == row["url"]
    # the key itself is accepted, and zoo.load builds the entry's configuration
    assert resolved_key(lambda: cls(pretrained_model=key, **row["kwargs"])) == key
    assert resolved_key(lambda: zoo.load(key)) == key
    # mean may be overwritten (ChainerCV's 'overwritable'), n_class may not
    assert row["overwritable"] == ["mean"]
    assert resolved_key(lambda: cls(pretrained_model=row["name"], mean=numpy.zeros((3, 1, 1), numpy.float32),
                                    **row["kwargs"])) == key
    with pytest.raises(ValueError, match=f"was trained with n_class={row['n_class']}, which conflicts with "
                                         f"n_class={row['n_class'] + 1}"):
        cls(pretrained_model=row["name"], n_class=row["n_class"] + 1, **row["kwargs"])


@pytest.mark.slow
@pytest.mark.parametrize("row", _rows(), ids=_id)
def test_constructor_takes_the_pretrained_configuration(row, monkeypatch):
    """Built for a ChainerCV name (the file itself is not loaded here), the model has ChainerCV's n_class and
    mean for it."""
    links = pytest.importorskip("kusari.vision.links")
    monkeypatch.setattr(registry, "weights_path", lambda name: "")
    model = getattr(links, row["class"])(pretrained_model=row["name"], **row["kwargs"])
    numpy.testing.assert_allclose(model.mean.ravel(), row["mean"], rtol=1e-7)
    assert model.mean.dtype == numpy.float32
    if row["class"] == "MobileNetV2":
        assert model.logits_conv.conv.out_channels == row["n_class"]
    else:
        assert model["fc8" if row["class"] == "VGG16" else "fc6"].out_size == row["n_class"]
