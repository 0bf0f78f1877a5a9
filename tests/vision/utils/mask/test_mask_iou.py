import numpy
import pytest

from kusari.vision.utils.mask.mask_iou import mask_iou


def test_matches_chainercv(utils_fixture):
    iou = mask_iou(utils_fixture["mask_iou/a"], utils_fixture["mask_iou/b"])
    assert iou.dtype == numpy.float32
    numpy.testing.assert_array_equal(iou, utils_fixture["mask_iou/iou"])     # nan where both masks are empty
    assert numpy.isnan(iou).any()


def test_hand_checked():
    a = numpy.zeros((1, 2, 3), bool)
    a[0, 0] = True
    b = numpy.ones((2, 2, 3), bool)
    b[1, :, 0] = False
    numpy.testing.assert_allclose(mask_iou(a, b), [[3 / 6, 2 / 5]])


def test_bad_input():
    with pytest.raises(ValueError, match=r"mask_iou: mask_a and mask_b must share \(H, W\), got mask_a.shape=\(1, 2, 3\), "
                                         r"mask_b.shape=\(1, 3, 2\)"):
        mask_iou(numpy.zeros((1, 2, 3), bool), numpy.zeros((1, 3, 2), bool))
    with pytest.raises(TypeError, match=r"mask_iou: mask_b must be a boolean array, got dtype int64"):
        mask_iou(numpy.zeros((1, 2, 3), bool), numpy.zeros((1, 2, 3), numpy.int64))
