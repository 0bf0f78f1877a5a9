"""mask_voting against ChainerCV's fixture (tools/chainercv_fixtures/fcis.py), on small hand-made cases, and bad
input."""
import numpy
import pytest

from kusari.vision.experimental.links.model.fcis import mask_voting

CASES = ("evaluate", "limit", "score", "merge", "nothing")


@pytest.mark.parametrize("case", CASES)
def test_matches_chainercv(utils_fixture, case):
    get = lambda key: utils_fixture[f"mask_voting/{key}"]
    size = tuple(int(v) for v in get("size"))
    seg_prob, bbox, label, score = mask_voting(get("seg_prob"), get("bbox"), get("cls_prob"), size,
                                               **get(f"{case}/params"))
    expected_bbox = get(f"{case}/bbox")
    assert (len(bbox) == 0) == (case == "nothing")
    assert bbox.shape == expected_bbox.shape[:1] + (4,) and bbox.dtype == numpy.float32
    numpy.testing.assert_array_equal(bbox, expected_bbox.reshape(-1, 4))       # integer boxes
    numpy.testing.assert_array_equal(label, get(f"{case}/label"))
    assert label.dtype == numpy.int32 and score.dtype == numpy.float32 and seg_prob.dtype == numpy.float32
    numpy.testing.assert_array_equal(score, get(f"{case}/score"))               # picked, not computed
    assert seg_prob.shape == (len(bbox), 21, 21)
    numpy.testing.assert_allclose(seg_prob, get(f"{case}/seg_prob").reshape(seg_prob.shape), rtol=0, atol=1e-6)


def _full_prob(n, size=5):
    return numpy.ones((n, size, size), numpy.float32)


def test_one_box_keeps_its_mask():
    bbox = numpy.array([[2, 3, 12, 18]], numpy.float32)
    cls_prob = numpy.array([[0.1, 0.9]], numpy.float32)
    seg_prob, v_bbox, label, score = mask_voting(_full_prob(1), bbox, cls_prob, (20, 30), 0.5, 0.3, 0.5, 0.4)
    numpy.testing.assert_array_equal(v_bbox, bbox)
    numpy.testing.assert_array_equal(seg_prob, 1)
    assert label.tolist() == [0] and score.tolist() == [numpy.float32(0.9)]


def test_votes_are_weighted_by_class_probability():
    """Two overlapping RoIs of one object: the kept one's mask becomes the weighted vote of both, over the
    box of the pixels whose vote reaches binary_thresh."""
    bbox = numpy.array([[0, 0, 10, 10], [0, 0, 10, 14]], numpy.float32)    # IoU 10 / 14
    cls_prob = numpy.array([[0.2, 0.8], [0.7, 0.3]], numpy.float32)        # weights 8/11 and 3/11
    size = (12, 16)
    for binary_thresh, width in ((0.25, 14), (0.3, 10)):
        seg_prob, v_bbox, label, score = mask_voting(_full_prob(2), bbox, cls_prob, size, 0.1, 0.9, 0.5,
                                                     binary_thresh)
        # per-class NMS at 0.9 keeps both RoIs (IoU 0.71) and both score above 0.1 in class 1
        assert label.tolist() == [0, 0] and numpy.allclose(score, [0.8, 0.3])
        numpy.testing.assert_array_equal(v_bbox, [[0, 0, 10, width]] * 2)
        if width == 14:   # the vote: 1 where both masks are, 3/11 where only the wider one is
            vote = numpy.full((10, 14), 3 / 11, numpy.float32)
            vote[:, :10] = 1
            from kusari.vision.transforms import resize
            numpy.testing.assert_allclose(seg_prob[0], resize(vote[None], (5, 5))[0], atol=1e-6)


def test_limit_and_score_thresh():
    rng = numpy.random.RandomState(0)
    bbox = numpy.array([[10 * i, 0, 10 * i + 8, 8] for i in range(6)], numpy.float32)   # disjoint boxes
    cls_prob = rng.dirichlet(numpy.ones(3), 6).astype(numpy.float32)
    _, v_bbox, label, score = mask_voting(_full_prob(6), bbox, cls_prob, (60, 10), 0.0, 0.3, 0.5, 0.4, limit=4)
    assert len(score) == 4
    fg = numpy.sort(cls_prob[:, 1:].ravel())[::-1]
    assert sorted(score.tolist(), reverse=True) == fg[:4].tolist()            # the four best of all classes
    assert numpy.all(numpy.diff(label) >= 0)
    _, _, _, score = mask_voting(_full_prob(6), bbox, cls_prob, (60, 10), float(fg[2]), 0.3, 0.5, 0.4, limit=100)
    assert sorted(score.tolist(), reverse=True) == fg[:3].tolist()


@pytest.mark.parametrize("n, score_thresh", [(0, 0.0), (3, 1.5)])
def test_nothing_is_a_valid_result(n, score_thresh):
    """No RoI (ChainerCV 0.13.1 fails on an empty sort) or none above score_thresh: typed empty arrays."""
    bbox = numpy.array([[0, 0, 5, 5]] * n, numpy.float32).reshape(n, 4)
    cls_prob = numpy.full((n, 3), 1 / 3, numpy.float32)
    seg_prob, v_bbox, label, score = mask_voting(numpy.zeros((n, 7, 7), numpy.float32), bbox, cls_prob, (10, 10),
                                                 score_thresh, 0.3, 0.5, 0.4)
    assert seg_prob.shape == (0, 7, 7) and seg_prob.dtype == numpy.float32
    assert v_bbox.shape == (0, 4) and v_bbox.dtype == numpy.float32
    assert label.shape == (0,) and label.dtype == numpy.int32
    assert score.shape == (0,) and score.dtype == numpy.float32


def test_boxes_past_the_image_are_cut_and_empty_ones_skipped():
    bbox = numpy.array([[-4, -4, 6, 6], [3, 3, 3.2, 9]], numpy.float32)   # the second rounds to no pixel
    cls_prob = numpy.array([[0.1, 0.9], [0.05, 0.95]], numpy.float32)
    seg_prob, v_bbox, label, score = mask_voting(_full_prob(2), bbox, cls_prob, (10, 10), 0.5, 0.3, 0.5, 0.4)
    numpy.testing.assert_array_equal(v_bbox, [[0, 0, 6, 6]])
    assert score.tolist() == [numpy.float32(0.9)]


@pytest.mark.parametrize("args, kwargs, error, message", [
    ((numpy.zeros((2, 5, 5), numpy.float32), numpy.zeros((3, 4), numpy.float32), numpy.zeros((3, 2), numpy.float32)),
     {}, ValueError, r"mask_voting: seg_prob must have 3 dimensions and one row per box \(bbox.shape=\(3, 4\)\), "
                     r"got seg_prob.shape=\(2, 5, 5\)"),
    ((numpy.zeros((3, 5, 5), numpy.float32), numpy.array([[0, 0, 5, 5]] * 3, numpy.float32),
      numpy.zeros((3, 2), numpy.int32)), {}, TypeError, "mask_voting: cls_prob must be a floating-point"),
    ((numpy.zeros((1, 5, 5), numpy.float32), numpy.array([[5, 0, 0, 5]], numpy.float32),
      numpy.zeros((1, 2), numpy.float32)), {}, ValueError, r"mask_voting: bbox\[0\] = .* has y_max < y_min"),
    ((numpy.zeros((1, 5, 5), numpy.float32), numpy.zeros((1, 4), numpy.float32), numpy.zeros((1, 2), numpy.float32)),
     {"limit": 0}, ValueError, "mask_voting: limit must be a positive int, got 0"),
    ((numpy.zeros((1, 5, 5), numpy.float32), numpy.zeros((1, 4), numpy.float32), numpy.zeros((1, 2), numpy.float32)),
     {"bg_label": 2}, ValueError, r"mask_voting: bg_label must be a column of cls_prob \(shape=\(1, 2\)\), got 2"),
])
def test_bad_input(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        mask_voting(*args, (10, 10), 0.5, 0.3, 0.5, 0.4, **kwargs)


def test_bad_size():
    args = numpy.zeros((1, 5, 5), numpy.float32), numpy.zeros((1, 4), numpy.float32), numpy.zeros((1, 2), numpy.float32)
    with pytest.raises(ValueError, match=r"mask_voting: size must be a \(height, width\) pair, got \(10,\)"):
        mask_voting(*args, (10,), 0.5, 0.3, 0.5, 0.4)
