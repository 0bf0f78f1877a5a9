"""bbox2loc against ChainerCV's fixture, the round trip with loc2bbox, and bad input."""
import numpy
import pytest

from kusari.vision.links.model.faster_rcnn import bbox2loc, loc2bbox


@pytest.mark.parametrize("case", ["float32", "float64", "zero_height"])
def test_matches_chainercv(utils_fixture, case):
    src, dst = utils_fixture[f"bbox2loc/{case}/src"], utils_fixture[f"bbox2loc/{case}/dst"]
    expected = utils_fixture[f"bbox2loc/{case}/loc"]
    loc = bbox2loc(src, dst)
    assert loc.dtype == expected.dtype == src.dtype
    numpy.testing.assert_allclose(loc, expected, rtol=1e-6, atol=1e-6)


def _boxes(rng, n):
    top_left = rng.uniform(0, 50, (n, 2))
    return numpy.concatenate([top_left, top_left + rng.uniform(1, 30, (n, 2))], axis=1)


def test_round_trip():
    rng = numpy.random.RandomState(0)
    src, dst = _boxes(rng, 10), _boxes(rng, 10)
    numpy.testing.assert_allclose(loc2bbox(src, bbox2loc(src, dst)), dst, rtol=1e-10, atol=1e-10)


def test_empty():
    empty = numpy.zeros((0, 4), numpy.float32)
    assert bbox2loc(empty, empty).shape == (0, 4)


def test_bad_input():
    box = numpy.array([[0, 0, 10, 10]], numpy.float32)
    with pytest.raises(ValueError, match=r"bbox2loc: src_bbox and dst_bbox must hold the same number of boxes.*"
                                         r"src_bbox.shape=\(1, 4\), dst_bbox.shape=\(2, 4\)"):
        bbox2loc(box, numpy.concatenate([box, box]))
    with pytest.raises(ValueError, match=r"bbox2loc: dst_bbox\[0\] = \[5.0, 0.0, 2.0, 10.0\] has y_max < y_min"):
        bbox2loc(box, numpy.array([[5, 0, 2, 10]], numpy.float32))
    with pytest.raises(ValueError, match=r"bbox2loc: src_bbox must have shape \(R, 4\).*got shape=\(4,\)"):
        bbox2loc(box[0], box)
    with pytest.raises(TypeError, match="bbox2loc: src_bbox must be a floating-point array"):
        bbox2loc(box.astype(numpy.int32), box)
