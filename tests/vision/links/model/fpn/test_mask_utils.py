"""segm_to_mask and mask_to_segm against ChainerCV's fixtures, and the inside-out boxes ChainerCV fails on."""
import numpy
import pytest

import kusari
import vision_fpn_parity as parity
from kusari.vision.links.model.fpn import mask_to_segm, segm_to_mask


def test_segm_to_mask_matches_chainercv():
    data = parity.entries(parity.load("units"), "segm_to_mask")
    segm = parity.seeded_weights.seeded_uniform(500, (8, 28, 28), 0, 1)
    mask = segm_to_mask(segm, data["bbox"], tuple(data["size"]))
    assert mask.dtype == bool
    numpy.testing.assert_array_equal(mask, data["mask"])


def test_segm_to_mask_leaves_inside_out_and_empty_boxes_empty():
    # a box that rounds to a negative padded size (what a random-weight head places outside the
    # image, clipped inside out) makes ChainerCV 0.13.1 fail in OpenCV; here its mask stays empty
    segm = numpy.ones((4, 28, 28), numpy.float32)
    bbox = numpy.array([[50, 10, 40, 30],      # y_max < y_min: negative height
                        [10, 30, 20, 12],      # x_max < x_min: negative width
                        [10, 10, 10.2, 20],    # rounds to a zero height once padded
                        [5, 5, 25, 35]], numpy.float32)
    mask = segm_to_mask(segm, bbox, (40, 50))
    assert mask.shape == (4, 40, 50) and not mask[:3].any()
    assert mask[3].sum() > 0.9 * 20 * 30


def test_segm_to_mask_is_unaffected_by_the_resize_backend_setting():
    data = parity.entries(parity.load("units"), "segm_to_mask")
    segm = parity.seeded_weights.seeded_uniform(500, (8, 28, 28), 0, 1)
    with kusari.using_config("cv_resize_backend", "PIL"):
        mask = segm_to_mask(segm, data["bbox"], tuple(data["size"]))
    numpy.testing.assert_array_equal(mask, data["mask"])


def test_segm_to_mask_pastes_cut_boxes_below_and_right_of_the_image():
    # boxes reaching past the far borders (ChainerCV fails to paste one starting beyond them)
    segm = numpy.ones((2, 28, 28), numpy.float32)
    bbox = numpy.array([[30, 40, 60, 70], [45, 10, 60, 20]], numpy.float32)
    mask = segm_to_mask(segm, bbox, (40, 50))
    assert mask[0, 31:, 41:].all() and not mask[0, :29].any() and not mask[1].any()


def test_segm_to_mask_rejects_bad_input():
    with pytest.raises(ValueError, match=r"segm_to_mask: segm must be a float \(R, S, S\) array"):
        segm_to_mask(numpy.zeros((2, 28, 27), numpy.float32), numpy.zeros((2, 4), numpy.float32), (10, 10))
    with pytest.raises(ValueError, match=r"segm_to_mask: bbox must have one row per mask \(2\)"):
        segm_to_mask(numpy.zeros((2, 28, 28), numpy.float32), numpy.zeros((3, 4), numpy.float32), (10, 10))
    with pytest.raises(ValueError, match=r"segm_to_mask: size must be a \(height, width\) pair"):
        segm_to_mask(numpy.zeros((2, 28, 28), numpy.float32), numpy.zeros((2, 4), numpy.float32), 10)


def test_mask_to_segm_matches_chainercv():
    data = parity.entries(parity.load("units"), "mask_to_segm")
    segm = mask_to_segm(data["mask"], data["bbox"], int(data["segm_size"]), data["index"])
    assert segm.dtype == numpy.float32
    numpy.testing.assert_array_equal(segm, data["segm"])
    numpy.testing.assert_array_equal(mask_to_segm(data["mask"], data["bbox"][:3], int(data["segm_size"])),
                                     data["segm_no_index"])


def test_mask_to_segm_rejects_bad_index():
    with pytest.raises(ValueError, match=r"mask_to_segm: index must hold one mask index in \[0, 2\) per box"):
        mask_to_segm(numpy.zeros((2, 10, 10), bool), numpy.zeros((1, 4), numpy.float32), 14, numpy.array([2]))
    assert mask_to_segm(numpy.zeros((2, 10, 10), bool), numpy.zeros((0, 4), numpy.float32), 14).shape == (0, 14, 14)
