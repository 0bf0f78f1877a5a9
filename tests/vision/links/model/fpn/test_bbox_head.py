"""kusari.vision.links.model.fpn.BboxHead, bbox_head_loss_pre and bbox_head_loss_post against ChainerCV's
fixtures."""
import numpy
import pytest

import kusari
import vision_fpn_parity as parity
from kusari.vision.links.model.fpn import BboxHead, bbox_head_loss_post, bbox_head_loss_pre
from kusari.vision.links.model.fpn.bbox_head import Caffe2FCUniform, suppress_boxes

SCALES = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)


def test_distribute_matches_chainercv():
    data = parity.entries(parity.load("units"), "bbox_distribute")
    rois, roi_indices = BboxHead(5, SCALES).distribute(data["rois"], data["roi_indices"])
    expected_rois = parity.listed(data, "out_rois")
    expected_indices = parity.listed(data, "out_roi_indices")
    assert len(rois) == len(expected_rois) == 5 and len(rois[-1]) == 0
    assert sum(len(r) > 0 for r in rois) >= 3
    for r, i, er, ei in zip(rois, roi_indices, expected_rois, expected_indices):
        numpy.testing.assert_array_equal(r, er)
        numpy.testing.assert_array_equal(i, ei)


def test_distribute_sends_inside_out_rois_to_the_finest_level():
    rois = numpy.array([[0, 0, 500, 500], [10, 10, 5, 400], [10, 10, 5, 4]], numpy.float32)
    levels, _ = BboxHead(5, SCALES).distribute(rois, numpy.zeros(3, numpy.int32))
    assert [len(r) for r in levels] == [2, 0, 0, 1, 0]
    numpy.testing.assert_array_equal(levels[0], rois[1:])


def test_decode_matches_chainercv():
    data = parity.entries(parity.load("units"), "bbox_decode")
    head = BboxHead(5, SCALES)
    bboxes, labels, scores = head.decode(
        parity.listed(data, "rois"), parity.listed(data, "roi_indices"), kusari.Variable(data["locs"]),
        kusari.Variable(data["confs"]), [float(s) for s in data["scales"]], [tuple(s) for s in data["sizes"]],
        float(data["nms_thresh"]), float(data["score_thresh"]))
    expected = [parity.listed(data, key) for key in ("bboxes", "labels", "scores")]
    # the fixture's heads push some boxes off the image: ChainerCV keeps them, clipped inside out
    assert sum(int((b[:, 2:] < b[:, :2]).any(axis=1).sum()) for b in expected[0]) > 0
    for i in range(2):
        assert labels[i].dtype == numpy.int32
        numpy.testing.assert_array_equal(labels[i], expected[1][i])
        parity.close(bboxes[i], expected[0][i], f"bboxes/{i}")
        parity.close(scores[i], expected[2][i], f"scores/{i}")


def test_suppress_boxes_keeps_inside_out_boxes_that_overlap_nothing():
    bbox = numpy.array([[0, 0, 10, 10], [20, 5, 18, 9], [1, 1, 10, 10], [30, 30, 25, 20], [0, 50, 5, 60]],
                       numpy.float32)
    numpy.testing.assert_array_equal(suppress_boxes(bbox, 0.5), [0, 1, 3, 4])


def test_forward_without_rois_gives_empty_outputs():
    head = BboxHead(3, SCALES)
    hs = [numpy.zeros((1, 4, 8 >> l or 1, 8 >> l or 1), numpy.float32) for l in range(5)]
    empty = [numpy.zeros((0, 4), numpy.float32)] * 5
    locs, confs = head(hs, empty, [numpy.zeros(0, numpy.int32)] * 5)
    assert locs.shape == (0, 3, 4) and confs.shape == (0, 3)
    bboxes, labels, scores = head.decode(empty, [numpy.zeros(0, numpy.int32)] * 5, locs, confs, [1.0], [(32, 32)],
                                         0.5, 0.1)
    assert bboxes[0].shape == (0, 4) and bboxes[0].dtype == numpy.float32
    assert labels[0].shape == (0,) and labels[0].dtype == numpy.int32 and scores[0].dtype == numpy.float32


def test_forward_shapes_and_parameter_names():
    head = BboxHead(3, SCALES)
    hs = [numpy.random.RandomState(l).standard_normal((2, 4, 16 >> l, 16 >> l)).astype(numpy.float32)
          for l in range(5)]
    rois = [numpy.array([[0, 0, 20, 30], [4, 4, 40, 40]], numpy.float32)] + \
        [numpy.array([[0, 0, 40, 60]], numpy.float32)] + [numpy.zeros((0, 4), numpy.float32)] * 3
    indices = [numpy.array([0, 1], numpy.int32), numpy.array([1], numpy.int32)] + [numpy.zeros(0, numpy.int32)] * 3
    locs, confs = head(hs, rois, indices)
    assert locs.shape == (3, 3, 4) and confs.shape == (3, 3)
    assert head.fc1.W.shape == (1024, 4 * 7 * 7)
    assert sorted(name for name, _ in head.namedparams()) == [
        "/conf/W", "/conf/b", "/fc1/W", "/fc1/b", "/fc2/W", "/fc2/b", "/loc/W", "/loc/b"]


def test_caffe2_fc_uniform_bounds_by_the_last_dimension():
    w = numpy.empty((300, 16), numpy.float32)
    Caffe2FCUniform()(w)
    assert numpy.abs(w).max() <= 0.25 and numpy.abs(w).max() > 0.2


def test_loss_pre_and_post_match_chainercv():
    data = parity.entries(parity.load("units"), "bbox_loss")
    numpy.random.seed(int(data["seed"]))
    pre = bbox_head_loss_pre(parity.listed(data, "rois"), parity.listed(data, "roi_indices"),
                             tuple(data["std"]), parity.listed(data, "bboxes"), parity.listed(data, "labels"))
    for name, values in zip(("rois", "roi_indices", "gt_locs", "gt_labels"), pre):
        expected = parity.listed(data, f"pre/{name}")
        assert len(values) == len(expected) == 5
        for l, (v, e) in enumerate(zip(values, expected)):
            if name == "gt_locs":   # 0 for the image without boxes (ChainerCV leaves them uninitialized)
                parity.close(v, e, f"gt_locs/{l}", rtol=1e-5)
            elif name == "rois":
                parity.close(v, e, f"rois/{l}", rtol=0)
            else:
                assert v.dtype == numpy.int32
                numpy.testing.assert_array_equal(v, e, err_msg=f"{name}/{l}")
    r = sum(len(v) for v in pre[0])
    locs = kusari.Variable(parity.seeded_weights.seeded_normal(300, (r, 5, 4)))
    confs = kusari.Variable(parity.seeded_weights.seeded_normal(301, (r, 5)))
    loc_loss, conf_loss = bbox_head_loss_post(locs, confs, pre[1], pre[2], pre[3], int(data["batchsize"]))
    parity.close(loc_loss, data["loc_loss"], "loc_loss", rtol=1e-5)
    parity.close(conf_loss, data["conf_loss"], "conf_loss", rtol=1e-5)
    (loc_loss + conf_loss).backward()
    parity.close(locs.grad, data["grad_locs"], "grad_locs", rtol=1e-5)
    parity.close(confs.grad, data["grad_confs"], "grad_confs", rtol=1e-5)


def test_loss_pre_rejects_inside_out_boxes_and_mismatched_labels():
    rois = [numpy.array([[0, 0, 10, 10]], numpy.float32)] + [numpy.zeros((0, 4), numpy.float32)] * 4
    indices = [numpy.zeros(1, numpy.int32)] + [numpy.zeros(0, numpy.int32)] * 4
    with pytest.raises(ValueError, match=r"bbox_head_loss_pre: bboxes\[0\]\[0\] = .* has y_max < y_min"):
        bbox_head_loss_pre(rois, indices, (0.1, 0.2), [numpy.array([[5, 0, 2, 4]], numpy.float32)],
                           [numpy.zeros(1, numpy.int32)])
    with pytest.raises(ValueError, match=r"bbox_head_loss_pre: labels\[0\] must have shape \(1,\)"):
        bbox_head_loss_pre(rois, indices, (0.1, 0.2), [numpy.array([[0, 0, 2, 4]], numpy.float32)],
                           [numpy.zeros(2, numpy.int32)])
