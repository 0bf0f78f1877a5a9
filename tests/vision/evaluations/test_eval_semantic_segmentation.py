import numpy
import pytest

from kusari.vision.evaluations import (calc_semantic_segmentation_confusion, calc_semantic_segmentation_iou,
                                       eval_semantic_segmentation)


def test_matches_chainercv(evaluations_fixture):
    f = evaluations_fixture
    pred, gt = f.list("semseg/pred_label"), f.list("semseg/gt_label")
    confusion = calc_semantic_segmentation_confusion(pred, gt)
    assert confusion.dtype == numpy.int64
    numpy.testing.assert_array_equal(confusion, f["semseg/confusion"])
    numpy.testing.assert_allclose(calc_semantic_segmentation_iou(confusion), f["semseg/iou_from_confusion"],
                                  rtol=0, atol=1e-12)
    result = eval_semantic_segmentation(iter(pred), iter(gt))
    assert set(result) == {"iou", "miou", "pixel_accuracy", "class_accuracy", "mean_class_accuracy"}
    for key, value in result.items():
        numpy.testing.assert_allclose(value, f[f"semseg/{key}"], rtol=0, atol=1e-12, err_msg=key)
    # class 4 is only predicted: its class accuracy is nan, its IoU 0
    assert numpy.isnan(result["class_accuracy"][4]) and result["iou"][4] == 0


def test_hand_checked_case_with_ignored_pixels():
    gt = numpy.array([[0, 0, 1], [1, -1, 2]], numpy.int32)
    pred = numpy.array([[0, 1, 1], [1, 2, 0]], numpy.int32)
    confusion = calc_semantic_segmentation_confusion([pred], [gt])
    numpy.testing.assert_array_equal(confusion, [[1, 1, 0], [0, 2, 0], [1, 0, 0]])
    result = eval_semantic_segmentation([pred], [gt])
    numpy.testing.assert_allclose(result["iou"], [1 / 3, 2 / 3, 0])
    numpy.testing.assert_allclose(result["pixel_accuracy"], 3 / 5)
    numpy.testing.assert_allclose(result["class_accuracy"], [1 / 2, 1, 0])


def test_bad_input():
    label = numpy.zeros((3, 4), numpy.int32)
    with pytest.raises(ValueError, match=r"calc_semantic_segmentation_confusion: pred_labels\[0\] and gt_labels\[0\] "
                                         r"must be \(H, W\) arrays of one shape, got pred shape=\(3, 4\), gt shape=\(4, 3\)"):
        eval_semantic_segmentation([label], [label.T])
    with pytest.raises(ValueError, match=r"pred_labels\[0\] has a negative label -1 at a pixel"):
        eval_semantic_segmentation([label - 1], [label])
    with pytest.raises(TypeError, match=r"gt_labels\[0\] must hold integer labels, got dtype float32"):
        eval_semantic_segmentation([label], [label.astype(numpy.float32)])
    with pytest.raises(ValueError, match=r"gt_labels ended after 1 images but pred_labels did not"):
        eval_semantic_segmentation([label, label], [label])
    with pytest.raises(ValueError, match=r"calc_semantic_segmentation_iou: confusion must be a square matrix"):
        calc_semantic_segmentation_iou(numpy.zeros((2, 3)))
