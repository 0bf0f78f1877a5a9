import numpy
import pytest

from kusari.vision.evaluations import eval_instance_segmentation_coco


def _run(f, case):
    names = ("pred_mask", "pred_label", "pred_score", "gt_mask", "gt_label")
    extra = [f.list("ins/gt_area"), f.list("ins/gt_crowded")] if case == "areas" else []
    return eval_instance_segmentation_coco(*[f.list(f"ins/{n}") for n in names], *extra)


@pytest.mark.parametrize("case", ["areas", "plain"])
def test_matches_chainercv_and_pycocotools(evaluations_fixture, case):
    f = evaluations_fixture
    result = _run(f, case)
    keys = f.keys(f"ins_coco/{case}")
    assert set(result) == set(keys) | {"coco_eval"}
    assert ("ap/iou=0.50:0.95/area=small/max_dets=100" in keys) == (case == "areas")
    for key in keys:
        numpy.testing.assert_allclose(numpy.asarray(result[key], numpy.float64), f[f"ins_coco/{case}/{key}"],
                                      rtol=0, atol=1e-6, err_msg=key)


def test_identical_masks_score_one():
    mask = numpy.zeros((2, 8, 9), bool)
    mask[0, 1:4, 2:6] = True
    mask[1, 5:8, 0:9] = True
    label = [numpy.array([1, 1], numpy.int32)]
    result = eval_instance_segmentation_coco([mask], label, [numpy.array([0.5, 0.6], numpy.float32)], [mask], label)
    numpy.testing.assert_allclose(result["ap/iou=0.50/area=all/max_dets=100"], [numpy.nan, 1])


def test_bad_input():
    mask = [numpy.ones((1, 4, 5), bool)]
    label = [numpy.zeros(1, numpy.int32)]
    score = [numpy.ones(1, numpy.float32)]
    with pytest.raises(ValueError, match=r"eval_instance_segmentation_coco: pred_masks\[0\] and gt_masks\[0\] differ"):
        eval_instance_segmentation_coco(mask, label, score, [numpy.ones((1, 4, 6), bool)], label)
    with pytest.raises(TypeError, match=r"eval_instance_segmentation_coco: gt_masks\[0\] must be a boolean array"):
        eval_instance_segmentation_coco(mask, label, score, [numpy.ones((1, 4, 5), numpy.uint8)], label)
