"""loc2bbox against ChainerCV's fixture, and bad input."""
import numpy
import pytest

from kusari.vision.links.model.faster_rcnn import loc2bbox


@pytest.mark.parametrize("case", ["float32", "float64", "three", "empty"])
def test_matches_chainercv(utils_fixture, case):
    src, loc = utils_fixture[f"loc2bbox/{case}/src"], utils_fixture[f"loc2bbox/{case}/loc"]
    expected = utils_fixture[f"loc2bbox/{case}/bbox"]
    bbox = loc2bbox(src, loc)
    assert bbox.dtype == expected.dtype == loc.dtype
    assert bbox.shape == expected.shape
    numpy.testing.assert_allclose(bbox, expected, rtol=1e-6, atol=1e-6)


def test_overflow_gives_inf_without_warning():
    src = numpy.array([[0, 0, 10, 10]], numpy.float32)
    with numpy.errstate(all="raise"):
        bbox = loc2bbox(src, numpy.array([[0, 0, 100, 0]], numpy.float32))
    assert bbox[0, 0] == -numpy.inf and bbox[0, 2] == numpy.inf and bbox[0, 3] == 10


def test_bad_input():
    src = numpy.array([[0, 0, 10, 10]], numpy.float32)
    with pytest.raises(ValueError, match=r"loc2bbox: loc must have shape \(R, 4K\) with R = src_bbox.shape\[0\], "
                                         r"got loc.shape=\(1, 6\), src_bbox.shape=\(1, 4\)"):
        loc2bbox(src, numpy.zeros((1, 6), numpy.float32))
    with pytest.raises(ValueError, match=r"loc.shape=\(2, 4\)"):
        loc2bbox(src, numpy.zeros((2, 4), numpy.float32))
    with pytest.raises(TypeError, match="loc2bbox: loc must be a floating-point array, got int64"):
        loc2bbox(src, numpy.zeros((1, 4), numpy.int64))
    with pytest.raises(ValueError, match=r"loc2bbox: src_bbox\[0\] .* has y_max < y_min"):
        loc2bbox(numpy.array([[10, 0, 0, 10]], numpy.float32), numpy.zeros((1, 4), numpy.float32))
