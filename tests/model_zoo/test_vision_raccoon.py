"""The shipped raccoon detector reproduces the test mAP its reproduction recorded, on the 40 real test photographs."""
import os

import numpy
import pytest

pytest.importorskip("cv2")

import kusari.model_zoo as zoo  # noqa: E402
from kusari.model_zoo.models.faster_rcnn_small import FasterRCNNSmall  # noqa: E402
from reproductions.vision import raccoon_detector  # noqa: E402


def test_entry_reproduces_its_recorded_test_map(shared_data, tmp_path):
    info = zoo.info("faster-rcnn-small-raccoon")
    assert info["reproduction"].startswith("vision/raccoon_detector (full tier, seed ")
    assert info["commit"] and not info["commit"].endswith("+dirty") and info["params"] == {"n_fg_class": 1}
    model = zoo.load("faster-rcnn-small-raccoon")
    assert type(model) is FasterRCNNSmall
    root = raccoon_detector.voc_layout(str(tmp_path / "voc"), os.path.join(shared_data, "raccoon"))
    test = raccoon_detector.dataset(root, "test")
    assert len(test) == 40
    assert raccoon_detector.voc_map(model, test) == pytest.approx(info["metric"]["test_map"], abs=1e-6)


def test_predict_returns_chainercv_convention(shared_data):
    from kusari.vision.utils import read_image
    model = zoo.load("faster-rcnn-small-raccoon")
    img = read_image(os.path.join(shared_data, "raccoon", "images", "raccoon-1.jpg"), color=True)
    (bbox,), (label,), (score,) = model.predict([img])
    assert bbox.dtype == numpy.float32 and bbox.shape == (len(label), 4) and len(label) >= 1
    assert (label == 0).all() and score.dtype == numpy.float32 and (score >= model.score_thresh).all()
    H, W = img.shape[1:]
    assert (bbox[:, 2] <= H).all() and (bbox[:, 3] <= W).all() and (bbox[:, :2] < bbox[:, 2:]).all()


def test_entry_is_the_full_runs_hand_off():
    """The entry's file, checksum, metric and commit are those the committed full result records."""
    import json
    from reproductions import catalog, runner
    with open(runner.result_path(runner.DEFAULT_OUT, "vision/raccoon_detector", "full")) as f:
        result = json.load(f)
    assert result["publishable"] and result["passed"] and result["seeds"] == [0, 1, 2]
    assert result["budget"] == catalog.get("vision/raccoon_detector").tier("full").budget
    info = zoo.info(result["weights"]["zoo_name"])
    assert info["sha256"] == result["weights"]["sha256"] and info["file"] == result["weights"]["file"]
    assert info["metric"] == {"test_map": result["weights"]["value"]} and info["commit"] == result["git_commit"]
    assert info["reproduction"] == f"vision/raccoon_detector (full tier, seed {result['weights']['seed']})"
