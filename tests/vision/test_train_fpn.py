"""examples/vision/train_fpn.py end to end on a tiny COCO 2017 written here in COCO's layout (images/,
annotations/instances_{train,val}2017.json with polygons): Faster R-CNN and Mask R-CNN FPN train, are
scored by COCO's evaluators inside the Trainer, log and snapshot; ChainerCV's learning-rate schedule;
a missing COCO says where and how."""
import importlib.util
import json
import os
import pathlib

import numpy
import pytest
from PIL import Image

# the helpers of test_train_scripts.py (tests are not on sys.path under importlib mode)
_spec = importlib.util.spec_from_file_location("vision_train_scripts",
                                               pathlib.Path(__file__).with_name("test_train_scripts.py"))
_scripts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_scripts)
_load_script, _log, _run = _scripts._load_script, _scripts._log, _scripts._run

pytest.importorskip("cv2")
pytest.importorskip("pycocotools")


def _write_coco(base, split, n_images, rng):
    """``images/<split>2017/*.jpg`` (48x64 noise with one or two bright rectangles) and
    ``annotations/instances_<split>2017.json``: each rectangle a 'person' (COCO id 1) or 'dog' (id 18)
    annotation with its polygon, box and area."""
    os.makedirs(os.path.join(base, "images", f"{split}2017"), exist_ok=True)
    os.makedirs(os.path.join(base, "annotations"), exist_ok=True)
    images, annotations = [], []
    for k in range(n_images):
        pixels = rng.randint(0, 100, size=(48, 64, 3)).astype(numpy.uint8)
        for _ in range(rng.randint(1, 3)):
            y, x = rng.randint(0, 24), rng.randint(0, 32)
            h, w = rng.randint(12, 24), rng.randint(16, 32)
            category = (1, 18)[rng.randint(2)]
            pixels[y:y + h, x:x + w] = (255, 200, 0) if category == 1 else (0, 200, 255)
            annotations.append({"id": len(annotations) + 1, "image_id": k + 1, "category_id": category,
                                "bbox": [x, y, w, h], "area": w * h, "iscrowd": 0,
                                "segmentation": [[x, y, x + w, y, x + w, y + h, x, y + h]]})
        name = f"{k + 1:012d}.jpg"
        Image.fromarray(pixels).save(os.path.join(base, "images", f"{split}2017", name), format="JPEG")
        images.append({"id": k + 1, "file_name": name, "height": 48, "width": 64})
    with open(os.path.join(base, "annotations", f"instances_{split}2017.json"), "w") as f:
        json.dump({"images": images, "annotations": annotations,
                   "categories": [{"id": 1, "name": "person"}, {"id": 18, "name": "dog"}]}, f)


@pytest.fixture(scope="module")
def coco_root(tmp_path_factory):
    """A dataset root holding COCO 2017 as ``data_dir='auto'`` keeps it (``coco/``): 4 training and 2
    validation images."""
    root = tmp_path_factory.mktemp("coco_root")
    rng = numpy.random.RandomState(0)
    _write_coco(root / "coco", "train", 4, rng)
    _write_coco(root / "coco", "val", 2, rng)
    return root


@pytest.mark.parametrize("model, evaluated", [
    ("faster_rcnn_fpn_resnet50", "validation/main/map/iou=0.50:0.95/area=all/max_dets=100"),
    pytest.param("mask_rcnn_fpn_resnet50", "validation/main/map/iou=0.50:0.95/area=all/max_dets=100",
                 marks=pytest.mark.slow),
])
def test_fpn_trains_evaluates_and_snapshots(coco_root, tmp_path, model, evaluated):
    out = tmp_path / "out"
    # --iteration counts batches of 16 images: 1 of them is 4 iterations of 4 images
    output = _run("train_fpn.py", "--model", model, "--pretrained-model", "none", "--batchsize", "4",
                  "--iteration", "1", "--min-size", "64", "--max-size", "96", "--log-interval", "2",
                  "--snapshot-interval", "2", "--eval-interval", "4", "--loaderjob", "0", "--out", out,
                  root=coco_root)
    assert "main/loss/rpn/conf" in output
    log = _log(out)
    assert [entry["iteration"] for entry in log] == [2, 4]
    schedule = _load_script("train_fpn").learning_rate
    for entry in log:   # in the linear warm-up from a third of 0.02 x 4 / 16; update k ran at iteration k - 1's rate
        assert entry["lr"] == pytest.approx(schedule(entry["iteration"] - 1, 4, [60000, 80000]))
        assert 0.005 / 3 < entry["lr"] < 0.005
        assert numpy.isfinite(entry["main/loss"])
    assert ("main/loss/mask_head" in log[-1]) == model.startswith("mask")
    assert evaluated not in log[0] and 0 <= log[1][evaluated] <= 1   # COCO's AP, at --eval-interval 4
    for name in ("snapshot_iter_2", "snapshot_iter_4", "model_iter_4", "loss.png"):
        assert (out / name).is_file(), name


def test_fpn_learning_rate_schedule():
    schedule = _load_script("train_fpn").learning_rate
    # batch 16: 0.02, warmed up from a third over 500 iterations, /10 at 60k and 80k
    assert [schedule(i, 16, [60000, 80000]) for i in (0, 250, 500, 59999, 60000, 80000)] == pytest.approx(
        [0.02 / 3, 0.02 * 2 / 3, 0.02, 0.02, 0.002, 0.0002])
    # batch 8: half the rate, the steps at twice as many iterations
    assert [schedule(i, 8, [60000]) for i in (500, 119999, 120000)] == pytest.approx([0.01, 0.01, 0.001])


def test_a_missing_coco_says_where_and_how(tmp_path):
    missing = tmp_path / "nowhere"
    output = _run("train_fpn.py", "--data-dir", missing, "--out", tmp_path / "out", expect=2)
    assert f"the COCO-format dataset in {missing} is missing" in output
    assert "To get it: " in output and "annotations_trainval2017.zip" in output and "Traceback" not in output
