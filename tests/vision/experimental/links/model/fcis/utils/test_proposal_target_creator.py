"""FCIS's ProposalTargetCreator against ChainerCV's fixture (NumPy seeded alike: the same draws), its mask
targets by hand, and bad input."""
import numpy
import pytest

from kusari.vision.experimental.links.model.fcis import ProposalTargetCreator
from kusari.vision.transforms import resize

CASES = ("default", "small", "all", "strict")


def _inputs(fixture):
    return tuple(fixture[f"proposal_target/{k}"] for k in ("roi", "mask", "label", "bbox"))


@pytest.mark.parametrize("case", CASES)
def test_matches_chainercv(utils_fixture, case):
    get = lambda key: utils_fixture[f"proposal_target/{case}/{key}"]
    mask_size = get("mask_size")
    mask_size = tuple(mask_size) if isinstance(mask_size, list) else mask_size
    creator = ProposalTargetCreator(**get("params"))
    numpy.random.seed(int(get("seed")))
    sample_roi, gt_roi_mask, gt_roi_label, gt_roi_loc = creator(*_inputs(utils_fixture), mask_size=mask_size,
                                                                **get("norm"))
    numpy.testing.assert_array_equal(sample_roi, get("sample_roi"))          # the same draws, in order
    numpy.testing.assert_array_equal(gt_roi_label, get("gt_roi_label"))
    numpy.testing.assert_array_equal(gt_roi_mask, get("gt_roi_mask"))
    numpy.testing.assert_allclose(gt_roi_loc, get("gt_roi_loc"), rtol=1e-6, atol=1e-6)
    assert sample_roi.dtype == gt_roi_loc.dtype == numpy.float32
    assert gt_roi_mask.dtype == gt_roi_label.dtype == numpy.int32


def test_mask_targets():
    """A foreground RoI's target is its box's mask inside the RoI, resized and binarized; a background
    RoI's is -1 everywhere."""
    mask = numpy.zeros((1, 40, 50), bool)
    mask[0, 10:30, 5:25] = True
    bbox = numpy.array([[10, 5, 30, 25]], numpy.float32)
    roi = numpy.array([[12, 8, 34, 30], [0, 30, 10, 50]], numpy.float32)   # IoU 0.51 with bbox, and 0
    creator = ProposalTargetCreator(n_sample=3, pos_ratio=1.0, pos_iou_thresh=0.5, neg_iou_thresh_lo=0.0)
    numpy.random.seed(0)
    sample_roi, gt_roi_mask, gt_roi_label, _ = creator(roi, mask, numpy.array([2], numpy.int32), bbox,
                                                       mask_size=(6, 8))
    assert gt_roi_label.tolist() == [3, 3, 0]      # the RoI and the box (in a random order), then the background
    for roi_, target in zip(sample_roi[:2], gt_roi_mask[:2]):
        y0, x0, y1, x1 = numpy.round(roi_).astype(int)
        expected = resize(mask[0, y0:y1, x0:x1].astype(numpy.float32)[None], (6, 8))[0] >= 0.4
        numpy.testing.assert_array_equal(target, expected)
    numpy.testing.assert_array_equal(gt_roi_mask[2], -1)
    assert sorted(m.min() for m in gt_roi_mask[:2]) == [0, 1]      # the RoI sticks out of the mask, the box not


def test_a_foreground_roi_without_pixels_is_ignored():
    """A tiny box rounds to no pixel: its mask target is -1 (ChainerCV 0.13.1 fails in OpenCV)."""
    mask = numpy.zeros((1, 10, 10), bool)
    mask[0, 4, 4] = True
    bbox = numpy.array([[4.1, 4.1, 4.4, 4.4]], numpy.float32)
    numpy.random.seed(0)
    _, gt_roi_mask, gt_roi_label, _ = ProposalTargetCreator(n_sample=1, pos_ratio=1.0)(
        numpy.zeros((0, 4), numpy.float32), mask, numpy.array([0], numpy.int32), bbox, mask_size=3)
    assert gt_roi_label.tolist() == [1] and gt_roi_mask.shape == (1, 3, 3)
    numpy.testing.assert_array_equal(gt_roi_mask, -1)


@pytest.mark.parametrize("mask, label, bbox, mask_size, message", [
    (numpy.zeros((2, 10, 10), bool), [0], [[0, 0, 5, 5]], 3,
     r"mask must have shape \(R', H, W\) with R' = len\(bbox\) = 1, got mask.shape=\(2, 10, 10\)"),
    (numpy.zeros((1, 10, 10), bool), [0, 1], [[0, 0, 5, 5]], 3,
     r"label must have shape \(R,\) = \(1,\), one per box, got shape=\(2,\)"),
    (numpy.zeros((0, 10, 10), bool), [], numpy.zeros((0, 4)), 3, "bbox must hold at least one box"),
    (numpy.zeros((1, 10, 10), bool), [0], [[5, 0, 0, 5]], 3, r"bbox\[0\] = .* has y_max < y_min"),
    (numpy.zeros((1, 10, 10), bool), [0], [[0, 0, 5, 5]], (3, 0),
     r"mask_size must be a positive int or a pair of them, got \(3, 0\)"),
])
def test_bad_input(mask, label, bbox, mask_size, message):
    with pytest.raises(ValueError, match="ProposalTargetCreator: " + message):
        ProposalTargetCreator()(numpy.zeros((0, 4), numpy.float32), mask, numpy.array(label, numpy.int32),
                                numpy.array(bbox, numpy.float32).reshape(-1, 4), mask_size=mask_size)
