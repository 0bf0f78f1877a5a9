import numpy
import pytest

from kusari.vision.utils.bbox.non_maximum_suppression import non_maximum_suppression

CASES = ["distinct", "ties", "no_score", "limit", "at_threshold", "large", "empty"]


@pytest.mark.parametrize("case", CASES)
def test_matches_chainercv(utils_fixture, case):
    f = lambda key: utils_fixture[f"nms/{case}/{key}"]  # noqa: E731
    score = None if case == "no_score" else f("score")
    limit = int(f("limit"))
    keep = non_maximum_suppression(f("bbox"), float(f("thresh")), score, None if limit < 0 else limit)
    assert keep.dtype == numpy.int32
    numpy.testing.assert_array_equal(keep, f("keep"))
    if case in ("ties", "large"):
        assert len(keep) > 3            # the case exercises more than a first box


def _reference(bbox, thresh, score):
    """The greedy definition, one box at a time (ties: the larger index first)."""
    order = sorted(range(len(bbox)), key=lambda i: (-score[i], -i))
    kept = []
    for i in order:
        b = bbox[i]
        ok = True
        for k in kept:
            c = bbox[k]
            h = min(b[2], c[2]) - max(b[0], c[0])
            w = min(b[3], c[3]) - max(b[1], c[1])
            inter = h * w if h > 0 and w > 0 else 0.0
            union = (b[2] - b[0]) * (b[3] - b[1]) + (c[2] - c[0]) * (c[3] - c[1]) - inter
            if inter / union >= thresh:
                ok = False
                break
        if ok:
            kept.append(i)
    return kept


def test_many_blocks_agree_with_the_greedy_definition():
    rng = numpy.random.default_rng(0)
    corner = rng.uniform(0, 300, (700, 2))
    bbox = numpy.concatenate([corner, corner + rng.uniform(5, 60, (700, 2))], axis=1)
    score = numpy.round(rng.uniform(size=700), 2)           # many ties, beyond one block of boxes
    numpy.testing.assert_array_equal(non_maximum_suppression(bbox, 0.4, score), _reference(bbox, 0.4, score))


def test_limit_zero_and_empty():
    bbox = numpy.array([[0, 0, 1, 1]], numpy.float32)
    assert non_maximum_suppression(bbox, 0.5, limit=0).shape == (0,)
    out = non_maximum_suppression(numpy.zeros((0, 4), numpy.float32), 0.5)
    assert out.shape == (0,) and out.dtype == numpy.int32


def test_bad_input():
    bbox = numpy.zeros((3, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"non_maximum_suppression: score must have shape \(R,\) = \(3,\) like bbox"):
        non_maximum_suppression(bbox, 0.5, numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match=r"non_maximum_suppression: limit must be None or an int >= 0, got -1"):
        non_maximum_suppression(bbox, 0.5, limit=-1)
    with pytest.raises(ValueError, match=r"non_maximum_suppression: bbox must have shape \(R, 4\)"):
        non_maximum_suppression(numpy.zeros(4, numpy.float32), 0.5)
