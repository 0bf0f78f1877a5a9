import numpy
import pytest

from kusari.vision.evaluations import calc_instance_segmentation_voc_prec_rec, eval_instance_segmentation_voc


def _inputs(f):
    return [f.list(f"ins/{n}") for n in ("pred_mask", "pred_label", "pred_score", "gt_mask", "gt_label")]


def test_prec_rec_match_chainercv(evaluations_fixture):
    f = evaluations_fixture
    prec, rec = calc_instance_segmentation_voc_prec_rec(*_inputs(f), 0.5)
    for actual, expected in ((prec, f.classes("ins_voc/t50/prec")), (rec, f.classes("ins_voc/t50/rec"))):
        assert [a is None for a in actual] == [e is None for e in expected]
        for a, e in zip(actual, expected):
            if e is not None:
                numpy.testing.assert_allclose(a, e, rtol=0, atol=1e-12)


@pytest.mark.parametrize("use_07_metric", [False, True])
def test_ap_matches_chainercv(evaluations_fixture, use_07_metric):
    f = evaluations_fixture
    result = eval_instance_segmentation_voc(*_inputs(f), use_07_metric=use_07_metric)
    suffix = "07" if use_07_metric else ""
    numpy.testing.assert_allclose(result["ap"], f[f"ins_voc/t50/ap{suffix}"], rtol=0, atol=1e-6)
    numpy.testing.assert_allclose(result["map"], f[f"ins_voc/t50/map{suffix}"], rtol=0, atol=1e-6)


def test_hand_checked_case():
    gt = numpy.zeros((1, 6, 6), bool)
    gt[0, :3, :3] = True                               # 9 pixels
    pred = numpy.zeros((2, 6, 6), bool)
    pred[0, :3, :2] = True                             # IoU 6/9: a hit
    pred[1, :3, :3] = True                             # the same object again: a false positive
    result = eval_instance_segmentation_voc([pred], [numpy.zeros(2, numpy.int32)],
                                            [numpy.array([0.9, 0.1], numpy.float32)], [gt], [numpy.zeros(1, numpy.int32)])
    numpy.testing.assert_allclose(result["ap"], [1.0])
    result = eval_instance_segmentation_voc([pred], [numpy.zeros(2, numpy.int32)],
                                            [numpy.array([0.9, 0.1], numpy.float32)], [gt], [numpy.zeros(1, numpy.int32)],
                                            iou_thresh=0.7)
    # at 0.7 the first mask misses; the second (lower score) hits: precision 1/2 at recall 1
    numpy.testing.assert_allclose(result["ap"], [0.5])


def test_bad_input():
    mask = [numpy.ones((1, 4, 5), bool)]
    label = [numpy.zeros(1, numpy.int32)]
    score = [numpy.ones(1, numpy.float32)]
    with pytest.raises(ValueError, match=r"eval_instance_segmentation_voc: predicted and ground-truth masks of one "
                                         r"image differ in size"):
        eval_instance_segmentation_voc(mask, label, score, [numpy.ones((1, 4, 6), bool)], label)
    with pytest.raises(ValueError, match=r"eval_instance_segmentation_voc: pred_masks\[0\] must have shape \(R, H, W\)"):
        eval_instance_segmentation_voc([mask[0][0]], label, score, mask, label)
