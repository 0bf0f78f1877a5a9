"""kusari.vision.links.model.fpn.RPN and rpn_loss against ChainerCV's fixtures."""
import numpy
import pytest

import kusari
import vision_fpn_parity as parity
from kusari.vision.links.model.fpn import RPN, rpn_loss

SCALES = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)
ANCHOR_SIZES = ((6, 8), (3, 4), (2, 2), (1, 1), (1, 1))


def test_anchors_match_chainercv():
    anchors = RPN(SCALES).anchors(ANCHOR_SIZES)
    expected = parity.listed(parity.load("units"), "anchors/out")
    assert len(anchors) == len(expected) == 5
    for a, e in zip(anchors, expected):
        assert a.dtype == numpy.float32
        numpy.testing.assert_array_equal(a, e)


@pytest.mark.parametrize("case, train", [("rpn_decode", False), ("rpn_decode_train", True)])
def test_decode_matches_chainercv(case, train):
    data = parity.entries(parity.load("units"), case)
    rpn = RPN(SCALES)
    limit = "train" if train else "test"
    setattr(rpn, f"_{limit}_nms_limit_pre", int(data["limit_pre"]))
    setattr(rpn, f"_{limit}_nms_limit_post", int(data["limit_post"]))
    anchors = rpn.anchors(ANCHOR_SIZES)
    locs = [kusari.Variable(a) for a in parity.listed(data, "locs")]
    with kusari.using_config("train", train):
        rois, roi_indices = rpn.decode(locs, parity.listed(data, "confs"), anchors, tuple(data["in_shape"]))
    assert roi_indices.dtype == numpy.int32
    numpy.testing.assert_array_equal(roi_indices, data["roi_indices"])
    parity.close(rois, data["rois"], "rois")


def test_forward_gives_one_row_per_anchor():
    rpn = RPN(SCALES)
    hs = [numpy.random.RandomState(0).standard_normal((2, 8, h, w)).astype(numpy.float32) for h, w in ANCHOR_SIZES]
    locs, confs = rpn(hs)
    anchors = rpn.anchors(ANCHOR_SIZES)
    assert [l.shape for l in locs] == [(2, len(a), 4) for a in anchors]
    assert [c.shape for c in confs] == [(2, len(a)) for a in anchors]
    assert sorted(name for name, _ in rpn.namedparams()) == ["/conf/W", "/conf/b", "/conv/W", "/conv/b",
                                                              "/loc/W", "/loc/b"]


def test_decode_without_proposals_gives_empty_arrays():
    rpn = RPN(SCALES)
    anchors = rpn.anchors(ANCHOR_SIZES)
    # offsets that shrink every box to nothing
    locs = [numpy.full((1, len(a), 4), -50, numpy.float32) for a in anchors]
    confs = [numpy.zeros((1, len(a)), numpy.float32) for a in anchors]
    with kusari.using_config("train", False):
        rois, roi_indices = rpn.decode(locs, confs, anchors, (1, 3, 24, 32))
    assert rois.shape == (0, 4) and rois.dtype == numpy.float32
    assert roi_indices.shape == (0,) and roi_indices.dtype == numpy.int32


def test_rpn_loss_matches_chainercv():
    data = parity.entries(parity.load("units"), "rpn_loss")
    anchors = RPN(SCALES).anchors([tuple(s) for s in data["sizes_hw"]])
    n = len(data["sizes"])
    locs = [kusari.Variable(parity.seeded_weights.seeded_normal(100 + l, (n, len(a), 4), 0.3))
            for l, a in enumerate(anchors)]
    confs = [kusari.Variable(parity.seeded_weights.seeded_normal(200 + l, (n, len(a))))
             for l, a in enumerate(anchors)]
    numpy.random.seed(int(data["seed"]))
    loc_loss, conf_loss = rpn_loss(locs, confs, anchors, [tuple(s) for s in data["sizes"]],
                                   parity.listed(data, "bboxes"))
    parity.close(loc_loss, data["loc_loss"], "loc_loss", rtol=1e-5)
    parity.close(conf_loss, data["conf_loss"], "conf_loss", rtol=1e-5)
    (loc_loss + conf_loss).backward()
    for name, variables in (("grad_locs", locs), ("grad_confs", confs)):
        for l, (v, expected) in enumerate(zip(variables, parity.listed(data, name))):
            parity.close(v.grad, expected, f"{name}/{l}", rtol=1e-5)


def test_rpn_loss_labels_few_background_anchors():
    # ChainerCV labels none of them when an image has at most 256 background candidates (NaN loss)
    rpn = RPN(SCALES)
    anchors = rpn.anchors(((10, 10), (5, 5), (3, 3), (2, 2), (1, 1)))
    k = sum(len(a) for a in anchors)
    locs = [kusari.Variable(numpy.zeros((1, len(a), 4), numpy.float32)) for a in anchors]
    confs = [kusari.Variable(numpy.zeros((1, len(a)), numpy.float32)) for a in anchors]
    loc_loss, conf_loss = rpn_loss(locs, confs, anchors, [(40, 40)], [numpy.zeros((0, 4), numpy.float32)])
    conf_loss.backward()
    labelled = sum(int((c.grad != 0).sum()) for c in confs)   # the anchors inside the image
    assert 0 < labelled < 256 and labelled < k and float(loc_loss.array) == 0
    numpy.testing.assert_allclose(conf_loss.array, numpy.log(2), rtol=1e-6)   # every inside anchor at p = 1/2


def test_rpn_loss_rejects_bad_boxes_and_mismatched_images():
    rpn = RPN(SCALES)
    anchors = rpn.anchors(((4, 4), (2, 2), (1, 1), (1, 1), (1, 1)))
    locs = [numpy.zeros((1, len(a), 4), numpy.float32) for a in anchors]
    confs = [numpy.zeros((1, len(a)), numpy.float32) for a in anchors]
    with pytest.raises(ValueError, match=r"rpn_loss: bboxes\[0\]\[0\] = .* has y_max < y_min"):
        rpn_loss(locs, confs, anchors, [(16, 16)], [numpy.array([[5, 0, 2, 4]], numpy.float32)])
    with pytest.raises(ValueError, match="rpn_loss: sizes and bboxes must have one entry per image"):
        rpn_loss(locs, confs, anchors, [(16, 16)], [])
    with pytest.raises(ValueError, match=r"rpn_loss: locs and confs must hold one row per anchor of each image"):
        rpn_loss(locs, confs, anchors, [(16, 16), (16, 16)], [numpy.zeros((0, 4), numpy.float32)] * 2)
