import numpy
import pytest

from kusari.vision.evaluations import calc_detection_voc_ap, calc_detection_voc_prec_rec, eval_detection_voc

CASES = {"t50": (0.5, True), "t75": (0.75, True), "t50_nodifficult": (0.5, False)}


def _inputs(f, difficult):
    names = ("pred_bbox", "pred_label", "pred_score", "gt_bbox", "gt_label")
    return [f.list(f"det_voc/{n}") for n in names] + [f.list("det_voc/gt_difficult") if difficult else None]


def _assert_classes(actual, expected):
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert (a is None) == (e is None)
        if e is not None:
            assert a.dtype == numpy.float64
            numpy.testing.assert_allclose(a, e, rtol=0, atol=1e-12)


@pytest.mark.parametrize("case", sorted(CASES))
def test_prec_rec_match_chainercv(evaluations_fixture, case):
    f = evaluations_fixture
    thresh, difficult = CASES[case]
    prec, rec = calc_detection_voc_prec_rec(*_inputs(f, difficult), iou_thresh=thresh)
    _assert_classes(prec, f.classes(f"det_voc/{case}/prec"))
    _assert_classes(rec, f.classes(f"det_voc/{case}/rec"))


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("use_07_metric", [False, True])
def test_ap_matches_chainercv(evaluations_fixture, case, use_07_metric):
    f = evaluations_fixture
    thresh, difficult = CASES[case]
    result = eval_detection_voc(*_inputs(f, difficult), iou_thresh=thresh, use_07_metric=use_07_metric)
    suffix = "07" if use_07_metric else ""
    numpy.testing.assert_allclose(result["ap"], f[f"det_voc/{case}/ap{suffix}"], rtol=0, atol=1e-6)
    numpy.testing.assert_allclose(result["map"], f[f"det_voc/{case}/map{suffix}"], rtol=0, atol=1e-6)
    # the fixture covers a class only predicted (ap 0) and, through the difficult flags, one with nan recall
    assert set(numpy.flatnonzero(numpy.isnan(result["ap"]))) == set(
        numpy.flatnonzero(numpy.isnan(f[f"det_voc/{case}/ap{suffix}"])))


def _raccoon_gt(root, name):
    import xml.etree.ElementTree as ET
    tree = ET.parse(f"{root}/raccoon/annotations/{name}").getroot()
    boxes = [[float(o.find("bndbox").find(t).text) for t in ("ymin", "xmin", "ymax", "xmax")] for o in tree.iter("object")]
    difficult = [o.find("difficult").text == "1" for o in tree.iter("object")]
    return numpy.array(boxes, numpy.float32).reshape(-1, 4), numpy.array(difficult, bool)


@pytest.mark.parametrize("difficult", ["xml", "marked"])
@pytest.mark.parametrize("use_07_metric", [False, True])
def test_raccoon_annotations_match_chainercv(evaluations_fixture, shared_data, difficult, use_07_metric):
    # the writer read the same XML files; predictions are perturbed ground truth plus false positives
    f = evaluations_fixture
    gt_bbox, gt_difficult = zip(*(_raccoon_gt(shared_data, str(name)) for name in f["raccoon/files"]))
    if difficult == "marked":
        gt_difficult = f.list("raccoon/difficult")
    pred_bbox = f.list("raccoon/pred_bbox")
    result = eval_detection_voc(pred_bbox, [numpy.zeros(len(b), numpy.int32) for b in pred_bbox],
                                f.list("raccoon/pred_score"), gt_bbox,
                                [numpy.zeros(len(b), numpy.int32) for b in gt_bbox], gt_difficult,
                                use_07_metric=use_07_metric)
    key = ("ap07" if use_07_metric else "ap") + ("_difficult" if difficult == "marked" else "")
    numpy.testing.assert_allclose(result["ap"], f[f"raccoon/{key}"], rtol=0, atol=1e-6)
    assert 0.3 < result["ap"][0] < 1.0


def _hand_case():
    # class 0: two ground-truth boxes; four detections ranked 0.9 (hit), 0.8 (duplicate of the same
    # box), 0.7 (miss), 0.6 (hit): precision 1, 1/2, 1/3, 1/2 at recall 1/2, 1/2, 1/2, 1
    gt = numpy.array([[0, 0, 9, 9], [20, 20, 29, 29]], numpy.float32)
    pred = numpy.array([[0, 0, 9, 9], [1, 1, 9, 9], [50, 50, 60, 60], [20, 20, 29, 29]], numpy.float32)
    score = numpy.array([0.9, 0.8, 0.7, 0.6], numpy.float32)
    zeros = numpy.zeros(4, numpy.int32)
    return [pred], [zeros], [score], [gt], [zeros[:2]]


def test_hand_checked_precision_recall_and_ap():
    prec, rec = calc_detection_voc_prec_rec(*_hand_case())
    numpy.testing.assert_allclose(prec[0], [1, 1 / 2, 1 / 3, 1 / 2])
    numpy.testing.assert_allclose(rec[0], [1 / 2, 1 / 2, 1 / 2, 1])
    # area under the running-max precision: 1/2 * 1 + 1/2 * 1/2
    numpy.testing.assert_allclose(eval_detection_voc(*_hand_case())["ap"], [0.75])
    # 11-point: precision 1 at recall 0 .. 0.5 (6 points), 1/2 at 0.6 .. 1 (5 points)
    numpy.testing.assert_allclose(eval_detection_voc(*_hand_case(), use_07_metric=True)["ap"], [(6 + 2.5) / 11])


def test_a_detection_of_a_difficult_object_is_ignored():
    pred, label, score, gt, gt_label = _hand_case()
    difficult = [numpy.array([False, True])]
    prec, rec = calc_detection_voc_prec_rec(pred, label, score, gt, gt_label, difficult)
    # the 0.6 detection hits the difficult box: neither a true nor a false positive (the curve keeps
    # its place but does not move); one positive is left
    numpy.testing.assert_allclose(prec[0], [1, 1 / 2, 1 / 3, 1 / 3])
    numpy.testing.assert_allclose(rec[0], [1, 1, 1, 1])


def test_classes_absent_or_without_positives():
    pred, label, score, gt, gt_label = _hand_case()
    label = [numpy.array([0, 0, 2, 0], numpy.int32)]            # class 2 only predicted, class 1 nowhere
    prec, rec = calc_detection_voc_prec_rec(pred, label, score, gt, gt_label)
    assert prec[1] is None and rec[1] is None
    numpy.testing.assert_allclose(prec[2], [0.0])
    assert rec[2] is None
    ap = eval_detection_voc(pred, label, score, gt, gt_label)["ap"]
    assert numpy.isnan(ap[1]) and numpy.isnan(ap[2])


def test_empty_detections_are_valid():
    gt = [numpy.array([[0, 0, 5, 5]], numpy.float32)]
    result = eval_detection_voc([numpy.zeros((0, 4), numpy.float32)], [numpy.zeros(0, numpy.int32)],
                                [numpy.zeros(0, numpy.float32)], gt, [numpy.zeros(1, numpy.int32)])
    numpy.testing.assert_array_equal(result["ap"], [0.0])


def test_calc_ap_keeps_nan_for_missing_classes():
    ap = calc_detection_voc_ap([None, numpy.array([1.0, 0.5])], [None, numpy.array([0.5, 0.5])])
    assert numpy.isnan(ap[0])
    numpy.testing.assert_allclose(ap[1], 0.5)


def test_bad_input():
    pred, label, score, gt, gt_label = _hand_case()
    with pytest.raises(ValueError, match=r"eval_detection_voc: pred_bboxes, pred_labels, pred_scores ended after "
                                         r"1 images but gt_bboxes, gt_labels did not"):
        eval_detection_voc(pred, label, score, gt * 2, gt_label * 2)
    with pytest.raises(ValueError, match=r"eval_detection_voc: pred_labels\[0\].shape=\(3,\) does not match the 4"):
        eval_detection_voc(pred, [label[0][:3]], score, gt, gt_label)
    with pytest.raises(ValueError, match=r"eval_detection_voc: gt_labels\[0\] holds a negative class id -1"):
        eval_detection_voc(pred, label, score, gt, [numpy.array([0, -1], numpy.int32)])
    with pytest.raises(ValueError, match=r"eval_detection_voc: gt_bboxes\[0\]\[1\] = .* has y_max < y_min"):
        eval_detection_voc(pred, label, score, [gt[0] * numpy.array([[1], [-1]], numpy.float32)], gt_label)
    with pytest.raises(ValueError, match=r"eval_detection_voc: pred_bboxes\[0\] must have shape \(R, 4\)"):
        eval_detection_voc([pred[0][:, :3]], label, score, gt, gt_label)
    with pytest.raises(TypeError, match=r"calc_detection_voc_prec_rec: gt_labels\[0\] must hold integer class ids"):
        calc_detection_voc_prec_rec(pred, label, score, gt, [gt_label[0].astype(numpy.float32)])
    with pytest.raises(ValueError, match=r"gt_difficults\[0\].shape=\(3,\) does not match the 2"):
        eval_detection_voc(pred, label, score, gt, gt_label, [numpy.zeros(3, bool)])
