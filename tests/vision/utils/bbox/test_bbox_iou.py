import numpy
import pytest

from kusari.vision.utils.bbox.bbox_iou import bbox_iou


@pytest.mark.parametrize("case", ["float32", "float64", "empty"])
def test_matches_chainercv(utils_fixture, case):
    a, b = utils_fixture[f"bbox_iou/{case}/a"], utils_fixture[f"bbox_iou/{case}/b"]
    iou = bbox_iou(a, b)
    expected = utils_fixture[f"bbox_iou/{case}/iou"]
    assert iou.dtype == expected.dtype == a.dtype
    numpy.testing.assert_array_equal(iou, expected)      # the same arithmetic, bit for bit


def test_hand_checked_values():
    a = numpy.array([[0, 0, 10, 10]], numpy.float32)
    b = numpy.array([[0, 0, 10, 10], [5, 5, 15, 15], [10, 0, 20, 10], [0, 0, 10, 20]], numpy.float32)
    numpy.testing.assert_allclose(bbox_iou(a, b), [[1, 25 / 175, 0, 0.5]])


def test_bad_input():
    with pytest.raises(ValueError, match=r"bbox_iou: bbox_b must have shape \(R, 4\) .* got shape=\(2, 3\)"):
        bbox_iou(numpy.zeros((1, 4), numpy.float32), numpy.zeros((2, 3), numpy.float32))
    with pytest.raises(ValueError, match=r"bbox_iou: bbox_a\[1\] = \[5.0, 0.0, 2.0, 4.0\] has y_max < y_min"):
        bbox_iou(numpy.array([[0, 0, 1, 1], [5, 0, 2, 4]], numpy.float32), numpy.zeros((1, 4), numpy.float32))
