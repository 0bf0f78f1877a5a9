"""ProposalTargetCreator against ChainerCV's fixture (NumPy seeded identically: the same draws in the same
order), its rules on a hand-made case, and bad input."""
import numpy
import pytest

from kusari.vision.links.model.faster_rcnn import ProposalTargetCreator, bbox2loc

CASES = ["default", "small_sample", "few_positives", "normalization"]


@pytest.mark.parametrize("case", CASES)
def test_matches_chainercv(utils_fixture, case):
    get = lambda key: utils_fixture[f"proposal_target/{case}/{key}"]
    numpy.random.seed(int(get("seed")))
    sample_roi, gt_roi_loc, gt_roi_label = ProposalTargetCreator(**get("params"))(
        utils_fixture["proposal_target/roi"], utils_fixture["proposal_target/bbox"],
        utils_fixture["proposal_target/label"], **get("norm"))
    assert sample_roi.dtype == gt_roi_loc.dtype == numpy.float32 and gt_roi_label.dtype == numpy.int32
    numpy.testing.assert_array_equal(sample_roi, get("sample_roi"))
    numpy.testing.assert_array_equal(gt_roi_label, get("gt_roi_label"))
    numpy.testing.assert_allclose(gt_roi_loc, get("gt_roi_loc"), rtol=1e-6, atol=1e-6)


def test_rules():
    roi = numpy.array([[0, 0, 10, 10], [0, 0, 10, 30], [30, 30, 40, 40], [0, 0, 10, 12]], numpy.float32)
    bbox = numpy.array([[0, 0, 10, 11], [30, 30, 39, 40]], numpy.float32)
    label = numpy.array([4, 1], numpy.int32)
    numpy.random.seed(0)
    creator = ProposalTargetCreator(n_sample=10, pos_ratio=0.5, pos_iou_thresh=0.5, neg_iou_thresh_hi=0.5,
                                    neg_iou_thresh_lo=0.0)
    sample_roi, gt_roi_loc, gt_roi_label = creator(roi, bbox, label)
    # foreground: rois 0, 2, 3 and the two ground-truth boxes (5 <= round(10 * 0.5)); background: roi 1
    assert len(sample_roi) == 6
    foreground = sample_roi[:5]
    expected = numpy.concatenate([roi[[0, 2, 3]], bbox])
    assert sorted(map(tuple, foreground.tolist())) == sorted(map(tuple, expected.tolist()))
    numpy.testing.assert_array_equal(sample_roi[5], roi[1])
    numpy.testing.assert_array_equal(gt_roi_label[5], 0)
    is_second = foreground[:, 0] == 30
    numpy.testing.assert_array_equal(gt_roi_label[:5], numpy.where(is_second, 2, 5))
    matched = numpy.where(is_second[:, None], bbox[1], bbox[0])
    numpy.testing.assert_allclose(gt_roi_loc[:5], bbox2loc(foreground, matched) / [0.1, 0.1, 0.2, 0.2], rtol=1e-6)


def test_bad_input():
    creator = ProposalTargetCreator()
    roi = numpy.array([[0, 0, 10, 10]], numpy.float32)
    bbox = numpy.array([[0, 0, 10, 10]], numpy.float32)
    with pytest.raises(ValueError, match=r"ProposalTargetCreator: labels must lie in >= 0 .* got values in \[-1, -1\]"):
        creator(roi, bbox, numpy.array([-1], numpy.int32))
    with pytest.raises(ValueError, match=r"ProposalTargetCreator: label must have shape \(R,\) = \(1,\), one per box, "
                                         r"got shape=\(2,\)"):
        creator(roi, bbox, numpy.array([0, 1], numpy.int32))
    with pytest.raises(TypeError, match="ProposalTargetCreator: label must be an integer array, got float32"):
        creator(roi, bbox, numpy.array([0], numpy.float32))
    with pytest.raises(ValueError, match=r"ProposalTargetCreator: bbox must hold at least one box"):
        creator(roi, numpy.zeros((0, 4), numpy.float32), numpy.zeros(0, numpy.int32))
