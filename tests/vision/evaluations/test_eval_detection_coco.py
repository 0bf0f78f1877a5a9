import numpy
import pytest

from kusari.vision.evaluations import eval_detection_coco

# ChainerCV 0.13.1's code returns these (its docstring lists others)
KEYS = ["ap/iou=0.50:0.95/area=all/max_dets=100", "ap/iou=0.50/area=all/max_dets=100",
        "ap/iou=0.75/area=all/max_dets=100", "ar/iou=0.50:0.95/area=all/max_dets=1",
        "ar/iou=0.50:0.95/area=all/max_dets=10", "ar/iou=0.50:0.95/area=all/max_dets=100"]
AREA_KEYS = [f"{kind}/iou=0.50:0.95/area={area}/max_dets=100" for kind in ("ap", "ar")
             for area in ("small", "medium", "large")]


def _run(f, case):
    names = ("pred_bbox", "pred_label", "pred_score", "gt_bbox", "gt_label")
    extra = [f.list("det_coco/gt_area"), f.list("det_coco/gt_crowded")] if case == "areas" else []
    return eval_detection_coco(*[f.list(f"det_coco/{n}") for n in names], *extra)


@pytest.mark.parametrize("case", ["areas", "plain"])
def test_matches_chainercv_and_pycocotools(evaluations_fixture, case):
    f = evaluations_fixture
    result = _run(f, case)
    keys = KEYS + (AREA_KEYS if case == "areas" else [])
    expected_keys = set(keys) | {"m" + k for k in keys} | {"existent_labels"}
    assert set(f.keys(f"det_coco/{case}")) == expected_keys
    assert set(result) == expected_keys | {"coco_eval"}
    for key in keys:
        numpy.testing.assert_allclose(result[key], f[f"det_coco/{case}/{key}"], rtol=0, atol=1e-6, err_msg=key)
        numpy.testing.assert_allclose(result["m" + key], f[f"det_coco/{case}/m{key}"], rtol=0, atol=1e-6, err_msg=key)
    numpy.testing.assert_array_equal(result["existent_labels"], f[f"det_coco/{case}/existent_labels"])


def test_the_fixture_covers_every_size_and_a_missing_class(evaluations_fixture):
    result = _run(evaluations_fixture, "areas")
    for area in ("small", "medium", "large"):
        assert not numpy.isnan(result[f"map/iou=0.50:0.95/area={area}/max_dets=100"])
    assert result["existent_labels"] == [0, 1, 2, 3]


def test_perfect_detections_score_one():
    gt = [numpy.array([[10, 10, 50, 60], [100, 100, 200, 150]], numpy.float32)]
    label = [numpy.array([0, 2], numpy.int32)]
    result = eval_detection_coco(gt, label, [numpy.array([0.9, 0.8], numpy.float32)], gt, label)
    numpy.testing.assert_allclose(result["ap/iou=0.50:0.95/area=all/max_dets=100"], [1, numpy.nan, 1])
    assert result["map/iou=0.50:0.95/area=all/max_dets=100"] == 1
    assert result["existent_labels"] == [0, 2]
    assert "ap/iou=0.50:0.95/area=small/max_dets=100" not in result


def test_bad_input():
    box = [numpy.array([[0, 0, 5, 5]], numpy.float32)]
    label = [numpy.zeros(1, numpy.int32)]
    score = [numpy.ones(1, numpy.float32)]
    with pytest.raises(ValueError, match=r"eval_detection_coco: gt_areas\[0\].shape=\(2,\) does not match the 1"):
        eval_detection_coco(box, label, score, box, label, [numpy.ones(2, numpy.float32)])
    with pytest.raises(ValueError, match=r"eval_detection_coco: neither the predictions nor the ground truth"):
        empty = [numpy.zeros((0, 4), numpy.float32)]
        eval_detection_coco(empty, [label[0][:0]], [score[0][:0]], empty, [label[0][:0]])
    with pytest.raises(ValueError, match=r"eval_detection_coco: pred_labels, pred_scores ended after 1 images"):
        eval_detection_coco(box * 2, label, score, box * 2, label * 2)
