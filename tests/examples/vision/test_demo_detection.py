"""examples/vision/demo_detection.py runs offline on a raccoon photo with a weight file written here (seeded
weights for YOLOv2Tiny), prints the detections the model makes and saves them drawn as a PNG."""
import importlib.util
import os
import subprocess
import sys

import numpy
import pytest

pytest.importorskip("cv2")
pytest.importorskip("matplotlib")

import kusari  # noqa: E402
from kusari import serializers  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SCRIPT = os.path.join(ROOT, "examples", "vision", "demo_detection.py")
_spec = importlib.util.spec_from_file_location("vision_seeded_weights",
                                               os.path.join(ROOT, "tests", "vision", "seeded_weights.py"))
seeded_weights = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seeded_weights)


def _run(*args):
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    return subprocess.run([sys.executable, SCRIPT, *args], env=env, capture_output=True, text=True, timeout=300,
                          check=False)


def _seeded_tiny_yolo(path):
    from kusari.vision.experimental.links import YOLOv2Tiny
    model = YOLOv2Tiny(n_fg_class=20)
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        model.forward(numpy.zeros((1, 3, 416, 416), numpy.float32))    # the deferred input sizes
    saved = {}
    serializers.DictionarySerializer(saved).save(model)
    shapes = {key: array.shape for key, array in saved.items() if array.dtype.kind == "f"}
    serializers.NpzDeserializer(seeded_weights.seeded_arrays(shapes, 0), strict=False).load(model)
    serializers.save_npz(path, model)
    return model


@pytest.mark.slow
def test_demo_prints_and_draws_the_detections(shared_data, tmp_path):
    from PIL import Image
    from kusari.vision.datasets import voc_bbox_label_names
    from kusari.vision.utils import read_image
    image = os.path.join(shared_data, "raccoon", "images", "raccoon-1.jpg")
    weights, out = str(tmp_path / "tiny.npz"), str(tmp_path / "detection.png")
    model = _seeded_tiny_yolo(weights)
    proc = _run("--model", "yolo_v2_tiny", "--pretrained-model", weights, "--score-thresh", "0.03", "--out", out,
                image)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    model.score_thresh = 0.03
    (bbox,), (label,), (score,) = model.predict([read_image(image, color=True)])
    assert len(bbox) > 0
    lines = proc.stdout.splitlines()
    assert lines[0] == f"{len(bbox)} objects in {image} (yolo_v2_tiny, score_thresh 0.03)"
    printed = [line.split("\t") for line in lines[1:1 + len(bbox)]]
    assert [p[0] for p in printed] == [voc_bbox_label_names[l] for l in label]
    numpy.testing.assert_allclose(numpy.array([p[1:] for p in printed], float),
                                  numpy.concatenate((score[:, None], bbox), axis=1), atol=0.051)
    assert lines[-1] == f"saved {out}"
    with Image.open(out) as png:
        assert png.format == "PNG" and min(png.size) > 100


def test_help_says_where_the_weights_come_from():
    proc = _run("--help")
    assert proc.returncode == 0
    for text in ("ssd300", "ssd512", "yolo_v2_tiny", "yolo_v3", "--gpu", "--pretrained-model", "--out",
                 "cannot be downloaded"):
        assert text in proc.stdout


def test_unknown_model_is_refused():
    proc = _run("--model", "yolo_v4")
    assert proc.returncode == 2 and "invalid choice: 'yolo_v4'" in proc.stderr


def test_zoo_detector_replaces_model(shared_data, tmp_path):
    from kusari import model_zoo
    from kusari.vision.utils import read_image
    image = os.path.join(shared_data, "raccoon", "images", "raccoon-1.jpg")
    out = str(tmp_path / "raccoon.png")
    proc = _run("--pretrained-model", "faster-rcnn-small-raccoon", "--label-names", "raccoon", "--out", out, image)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (bbox,), _, (score,) = model_zoo.load("faster-rcnn-small-raccoon").predict([read_image(image, color=True)])
    lines = proc.stdout.splitlines()
    assert lines[0] == f"{len(bbox)} objects in {image} (faster-rcnn-small-raccoon, score_thresh 0.7)"
    assert [line.split("\t")[0] for line in lines[1:1 + len(bbox)]] == ["raccoon"] * len(bbox)
    assert os.path.getsize(out) > 0


def test_zoo_detector_needs_matching_label_names(tmp_path):
    proc = _run("--pretrained-model", "faster-rcnn-small-raccoon", "--out", str(tmp_path / "x.png"), "x.jpg")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "'faster-rcnn-small-raccoon' detects 1 classes but 20 label names were given; pass --label-names" \
        in proc.stderr


def test_missing_weights_are_a_message(tmp_path):
    missing = str(tmp_path / "missing.npz")
    proc = _run("--model", "yolo_v2_tiny", "--pretrained-model", missing, "--out", str(tmp_path / "x.png"), "x.jpg")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"demo_detection.py: YOLOv2Tiny: pretrained_model={missing!r} is neither")
