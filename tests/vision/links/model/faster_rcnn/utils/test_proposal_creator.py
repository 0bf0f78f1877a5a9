"""ProposalCreator against ChainerCV's fixture (exact: the same boxes in the same order), and its contract."""
import numpy
import pytest

import kusari
from kusari.vision.links.model.faster_rcnn import ProposalCreator

CASES = ["test_default", "train_default", "test_limits", "train_limits", "no_limits"]


@pytest.mark.parametrize("case", CASES)
def test_matches_chainercv(utils_fixture, case):
    get = lambda key: utils_fixture[f"proposal/{case}/{key}"]
    creator = ProposalCreator(**get("params"))
    with kusari.using_config("train", bool(get("train"))):
        roi = creator(utils_fixture["proposal/loc"], utils_fixture["proposal/score"], utils_fixture["anchor"],
                      tuple(utils_fixture["img_size"].tolist()), scale=float(get("scale")))
    assert roi.dtype == numpy.float32
    assert roi.shape == get("roi").shape
    numpy.testing.assert_array_equal(roi, get("roi"))


def test_clips_filters_and_orders():
    anchor = numpy.array([[0, 0, 10, 10], [5, 5, 25, 25], [20, 20, 40, 40], [-10, -10, 5, 5], [0, 0, 3, 30]],
                         numpy.float32)
    loc = numpy.zeros_like(anchor)
    score = numpy.array([0.1, 0.9, 0.5, 0.8, 0.95], numpy.float32)
    with kusari.using_config("train", False):
        roi = ProposalCreator(nms_thresh=0.7, min_size=4)(loc, score, anchor, (30, 30))
    # the anchor of height 3 is too small; the one at -10 is clipped to 5x5; (20, 40) to (20, 30)
    numpy.testing.assert_array_equal(roi, [[5, 5, 25, 25], [0, 0, 5, 5], [20, 20, 30, 30], [0, 0, 10, 10]])
    with kusari.using_config("train", False):
        roi = ProposalCreator(min_size=4, n_test_pre_nms=2, n_test_post_nms=1)(loc, score, anchor, (30, 30), 2.)
    numpy.testing.assert_array_equal(roi, [[5, 5, 25, 25]])   # min_size 8: the clipped 5x5 box is dropped


def test_no_box_survives():
    anchor = numpy.array([[0, 0, 4, 4]], numpy.float32)
    roi = ProposalCreator()(numpy.zeros((1, 4), numpy.float32), numpy.ones(1, numpy.float32), anchor, (20, 20))
    assert roi.shape == (0, 4) and roi.dtype == numpy.float32


def test_bad_input():
    anchor = numpy.zeros((3, 4), numpy.float32)
    creator = ProposalCreator()
    with pytest.raises(ValueError, match=r"ProposalCreator: loc must have shape \(R, 4\) and score \(R,\) with "
                                         r"R = len\(anchor\) = 3, got loc.shape=\(2, 4\), score.shape=\(3,\)"):
        creator(numpy.zeros((2, 4), numpy.float32), numpy.zeros(3, numpy.float32), anchor, (10, 10))
    with pytest.raises(ValueError, match=r"ProposalCreator: img_size must hold two positive numbers"):
        creator(numpy.zeros((3, 4), numpy.float32), numpy.zeros(3, numpy.float32), anchor, (10, 0))
