"""Comparing kusari.vision's single-shot detectors (SSD, YOLO) with ChainerCV's fixtures
(tools/chainercv_fixtures/ssd_yolo.py).

A model fixture holds the model's key list, the shapes of its float arrays, the seeds of two noise images and
ChainerCV's ``predict`` results on them (with the fixture's thresholds) and raw head outputs, on weights drawn
by tests/vision/seeded_weights.py (a few multiplied by the factors in ``scaled``). The test builds the model,
fills it with the same weights (the deferred input sizes come from the arrays), saves it with kusari's
save_npz, builds a fresh model with ``pretrained_model=`` that file (strict loading) and compares its
``predict`` on the same images.
"""
import importlib.util
import json
import pathlib

import numpy

from kusari import serializers

ROOT = pathlib.Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "ssd_yolo"
JSON_ENTRIES = ("config", "keys", "shapes", "scaled")

_spec = importlib.util.spec_from_file_location("vision_seeded_weights", ROOT / "seeded_weights.py")
seeded_weights = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seeded_weights)


def load_fixture(name: str) -> dict:
    """The entries of ``FIXTURES/<name>.npz``, JSON entries decoded."""
    with numpy.load(FIXTURES / f"{name}.npz") as data:
        return {key: (json.loads(str(data[key])) if key in JSON_ENTRIES else data[key]) for key in data.files}


def images(fixture: dict) -> list:
    """The fixture's images, drawn again from their seeds (as the writer's ``seeded_image``), as float32."""
    imgs = []
    for i in range(2):
        shape = tuple(fixture[f"img_shape/{i}"])
        img = numpy.random.RandomState(int(fixture[f"img_seed/{i}"])).randint(0, 256, shape).astype(numpy.uint8)
        assert int(img.sum()) == int(fixture[f"img_sum/{i}"])
        imgs.append(img.astype(numpy.float32))
    return imgs


def seeded_model_file(cls, fixture: dict, tmp_path) -> str:
    """An NPZ, saved by kusari, of ``cls(n_fg_class)`` holding the fixture's seeded weights; the model saves
    exactly ChainerCV's keys, with ChainerCV's shapes once filled."""
    model = cls(n_fg_class=fixture["config"]["n_fg_class"])
    saved = {}
    serializers.DictionarySerializer(saved).save(model)
    assert sorted(saved) == fixture["keys"]
    arrays = seeded_weights.seeded_arrays(fixture["shapes"], int(fixture["seed"]))
    for key, factor in fixture["scaled"].items():     # as the writer did after its fill
        arrays[key] *= factor
    serializers.NpzDeserializer(arrays, strict=False).load(model)
    saved = {}
    serializers.DictionarySerializer(saved).save(model)
    assert {key: list(saved[key].shape) for key in fixture["shapes"]} == fixture["shapes"]
    path = str(tmp_path / "seeded.npz")
    serializers.save_npz(path, model, compression=False)
    return path


def assert_close(actual, expected, name: str) -> None:
    """Within 1e-4, relative to the larger of 1 and the largest expected magnitude; float32 kept."""
    assert actual.dtype == numpy.float32, name
    assert actual.shape == expected.shape, name
    scale = max(1.0, float(numpy.abs(expected).max(initial=0)))
    numpy.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4 * scale, err_msg=name)


def check_model(cls, name: str, tmp_path) -> None:
    """``cls`` gives ChainerCV's presets, and on the fixture's seeded weights ChainerCV's raw head outputs
    and ``predict`` results (same count, boxes and scores within 1e-4, labels exact)."""
    fixture = load_fixture(name)
    config = fixture["config"]
    assert config["class"] == cls.__name__
    model = cls(n_fg_class=config["n_fg_class"], pretrained_model=seeded_model_file(cls, fixture, tmp_path))
    assert model.insize == config["insize"]
    for preset, thresholds in config["presets"].items():
        model.use_preset(preset)
        assert [model.nms_thresh, model.score_thresh] == thresholds
    if "mean" in config:
        numpy.testing.assert_array_equal(model.mean.ravel(), config["mean"])
        assert model.mean.dtype == numpy.float32
    model.nms_thresh = float(fixture["nms_thresh"])
    model.score_thresh = float(fixture["score_thresh"])

    outputs = []
    forward = model.forward

    def spy(x):
        outputs.append(forward(x))
        return outputs[-1]

    model.forward = spy
    bboxes, labels, scores = model.predict(images(fixture))
    raw_names = ("mb_locs", "mb_confs") if "mb_locs" in fixture else ("locs", "objs", "confs")
    for raw_name, raw in zip(raw_names, outputs[0]):
        assert_close(raw.array[:, fixture["raw_index"]], fixture[raw_name], f"{name}: {raw_name}")
    assert len(bboxes) == len(labels) == len(scores) == 2
    for i in range(2):
        expected_bbox, expected_label = fixture[f"bbox/{i}"], fixture[f"label/{i}"]
        assert len(bboxes[i]) > 0
        assert_close(bboxes[i], expected_bbox, f"{name}: bbox {i}")
        assert labels[i].dtype == numpy.int32
        numpy.testing.assert_array_equal(labels[i], expected_label)
        assert_close(scores[i], fixture[f"score/{i}"], f"{name}: score {i}")
