"""kusari.vision.links.model.fpn.MaskHead, mask_head_loss_pre and mask_head_loss_post against ChainerCV's
fixtures."""
import numpy
import pytest

import kusari
import vision_fpn_parity as parity
from kusari.vision.links.model.fpn import MaskHead, mask_head_loss_post, mask_head_loss_pre

SCALES = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)


def test_distribute_matches_chainercv():
    data = parity.entries(parity.load("units"), "mask_distribute")
    rois, roi_indices, order = MaskHead(5, SCALES).distribute(data["rois"], data["roi_indices"])
    for r, i, er, ei in zip(rois, roi_indices, parity.listed(data, "out_rois"),
                            parity.listed(data, "out_roi_indices")):
        numpy.testing.assert_array_equal(r, er)
        numpy.testing.assert_array_equal(i, ei)
    numpy.testing.assert_array_equal(order, data["order"])
    numpy.testing.assert_array_equal(numpy.concatenate(rois)[order], data["rois"])


def test_forward_shapes_and_parameter_names():
    head = MaskHead(3, SCALES)
    hs = [numpy.random.RandomState(l).standard_normal((1, 4, 16 >> l, 16 >> l)).astype(numpy.float32)
          for l in range(5)]
    rois = [numpy.array([[0, 0, 20, 30]], numpy.float32)] * 2 + [numpy.zeros((0, 4), numpy.float32)] * 3
    indices = [numpy.zeros(1, numpy.int32)] * 2 + [numpy.zeros(0, numpy.int32)] * 3
    assert head(hs, rois, indices).shape == (2, 3, 28, 28)
    empty = head(hs, [numpy.zeros((0, 4), numpy.float32)] * 5, [numpy.zeros(0, numpy.int32)] * 5)
    assert empty.shape == (0, 3, 28, 28) and empty.dtype == numpy.float32
    assert sorted(name for name, _ in head.namedparams()) == [
        f"/{c}/conv/{p}" for c in ("conv1", "conv2", "conv3", "conv4") for p in ("W", "b")] + [
        "/conv5/W", "/conv5/b", "/seg/W", "/seg/b"]


def test_decode_takes_each_detections_class():
    head = MaskHead(3, SCALES)
    segms = numpy.zeros((2, 3, 28, 28), numpy.float32)
    segms[0, 2] = 1      # detection 0 has label 1: class 2's mask
    segms[1, 2] = 1      # detection 1 has label 0: class 1's mask, empty
    bboxes = numpy.array([[2, 2, 12, 12], [2, 2, 12, 12]], numpy.float32)
    masks = head.decode([segms, segms[:0]], [bboxes, bboxes[:0]],
                        [numpy.array([1, 0], numpy.int32), numpy.zeros(0, numpy.int32)], [(16, 16), (8, 9)])
    assert masks[0].shape == (2, 16, 16) and masks[0][0].sum() > 80 and not masks[0][1].any()
    assert masks[1].shape == (0, 8, 9) and masks[1].dtype == bool


def test_loss_pre_and_post_match_chainercv():
    data = parity.entries(parity.load("units"), "mask_loss")
    pre = mask_head_loss_pre(parity.listed(data, "rois"), parity.listed(data, "roi_indices"),
                             parity.listed(data, "gt_masks"), parity.listed(data, "gt_bboxes"),
                             parity.listed(data, "gt_head_labels"), int(data["segm_size"]))
    for name, values in zip(("rois", "roi_indices", "gt_segms", "gt_mask_labels"), pre):
        expected = parity.listed(data, f"pre/{name}")
        assert len(values) == len(expected) == 5
        for v, e in zip(values, expected):
            assert v.dtype == e.dtype, name
            numpy.testing.assert_array_equal(v, e, err_msg=name)
    r = sum(len(v) for v in pre[0])
    n_class = int(data["n_class"])
    segms = kusari.Variable(parity.seeded_weights.seeded_normal(400, (r, n_class, 14, 14), 2.0))
    loss = mask_head_loss_post(segms, pre[1], pre[2], pre[3], 2)
    parity.close(loss, data["loss"], "loss", rtol=1e-5)
    loss.backward()
    labels = numpy.concatenate(pre[3])
    parity.close(segms.grad[numpy.arange(r), labels], data["grad_segms"], "grad_segms", rtol=1e-5)
    others = numpy.ones((r, n_class), bool)
    others[numpy.arange(r), labels] = False
    assert not segms.grad[others].any()


def test_loss_pre_rejects_labels_that_do_not_match_the_rois():
    rois = [numpy.array([[0, 0, 10, 10]], numpy.float32)] + [numpy.zeros((0, 4), numpy.float32)] * 4
    indices = [numpy.zeros(1, numpy.int32)] + [numpy.zeros(0, numpy.int32)] * 4
    with pytest.raises(ValueError, match=r"mask_head_loss_pre: gt_head_labels must hold one label per RoI \(1\)"):
        mask_head_loss_pre(rois, indices, [numpy.zeros((1, 10, 10), bool)],
                           [numpy.array([[0, 0, 5, 5]], numpy.float32)], [numpy.ones(2, numpy.int32)], 14)
