"""AnchorTargetCreator against ChainerCV's fixture: NumPy seeded identically, the same draws in the same order
(labels exact, offsets within 1e-6); its rules on hand-made cases; bad input."""
import numpy
import pytest

from kusari.vision.links.model.faster_rcnn import AnchorTargetCreator, bbox2loc

CASES = ["default", "small_sample", "thresholds", "one_box"]


@pytest.mark.parametrize("case", CASES)
def test_matches_chainercv(utils_fixture, case):
    get = lambda key: utils_fixture[f"anchor_target/{case}/{key}"]
    numpy.random.seed(int(get("seed")))
    loc, label = AnchorTargetCreator(**get("params"))(get("bbox"), utils_fixture["anchor"],
                                                      tuple(utils_fixture["img_size"].tolist()))
    assert label.dtype == numpy.int32 and loc.dtype == numpy.float32
    numpy.testing.assert_array_equal(label, get("label"))
    numpy.testing.assert_allclose(loc, get("loc"), rtol=1e-6, atol=1e-6)


def test_sampling_draws_happen():
    """Four positives and four negatives for a sample of two of each: both draws happen, at random."""
    creator = AnchorTargetCreator(n_sample=4, pos_ratio=0.5, pos_iou_thresh=0.5, neg_iou_thresh=0.3)
    anchor = numpy.array([[0, 0, 10, 10], [0, 1, 10, 11], [1, 0, 11, 10], [0, 0, 10, 9],
                          [20, 20, 30, 30], [20, 40, 30, 50], [40, 20, 50, 30], [40, 40, 50, 50]], numpy.float32)
    bbox = numpy.array([[0, 0, 10, 10]], numpy.float32)
    labels = []
    for seed in range(20):
        numpy.random.seed(seed)
        _, label = creator(bbox, anchor, (60, 60))
        assert (label == 1).sum() == 2 and (label == 0).sum() == 2 and (label[:4] >= 0).sum() == 2
        labels.append(tuple(label))
    assert len(set(labels)) > 1    # the subsets are random


def test_rules():
    creator = AnchorTargetCreator(n_sample=100, pos_iou_thresh=0.7, neg_iou_thresh=0.3)
    anchor = numpy.array([[0, 0, 10, 10],      # IoU 1 with the box: positive
                          [0, 0, 10, 20],      # IoU 0.5: ignored
                          [0, 5, 10, 15],      # IoU 1/3: ignored
                          [30, 30, 40, 40],    # IoU 0: negative
                          [45, 45, 70, 70]],   # outside the 50x50 image
                         numpy.float32)
    bbox = numpy.array([[0, 0, 10, 10]], numpy.float32)
    loc, label = creator(bbox, anchor, (50, 50))
    numpy.testing.assert_array_equal(label, [1, -1, -1, 0, -1])
    numpy.testing.assert_array_equal(loc[4], 0)
    numpy.testing.assert_allclose(loc[:4], bbox2loc(anchor[:4], numpy.repeat(bbox, 4, axis=0)))


def test_best_anchor_of_each_box_is_positive():
    creator = AnchorTargetCreator(pos_iou_thresh=0.9)
    anchor = numpy.array([[0, 0, 10, 20], [0, 0, 20, 20], [30, 30, 40, 40]], numpy.float32)
    _, label = creator(numpy.array([[0, 0, 10, 10]], numpy.float32), anchor, (50, 50))
    numpy.testing.assert_array_equal(label, [1, 0, 0])    # IoU 0.5 is the box's best: positive


def test_bad_input():
    creator = AnchorTargetCreator()
    anchor = numpy.array([[0, 0, 10, 10]], numpy.float32)
    with pytest.raises(ValueError, match=r"AnchorTargetCreator: bbox must hold at least one box, got shape=\(0, 4\)"):
        creator(numpy.zeros((0, 4), numpy.float32), anchor, (20, 20))
    with pytest.raises(ValueError, match=r"AnchorTargetCreator: bbox\[0\] = .* has y_max < y_min"):
        creator(numpy.array([[5, 0, 1, 10]], numpy.float32), anchor, (20, 20))
    with pytest.raises(ValueError, match=r"AnchorTargetCreator: no anchor lies inside the image \(img_size=\(5, 5\)"):
        creator(numpy.array([[0, 0, 1, 1]], numpy.float32), anchor, (5, 5))
