"""non_maximum_suppression: greedy suppression of boxes that overlap a higher-scored kept box."""
import numpy

from kusari import backend
from kusari.vision.utils.bbox.bbox_iou import check_bbox, pairwise_iou

# boxes are compared in blocks of this many, in score order: memory stays O(block * kept)
_BLOCK = 256


def descending_order(score):
    """Indices that sort ``score`` in descending order, ties by descending index.

    This is ChainerCV's ``score.argsort()[::-1]`` made deterministic: NumPy's default argsort is
    stable for up to 16 elements (where the two agree on ties) and unspecified beyond.
    """
    xp = backend.get_array_module(score)
    return xp.argsort(score, kind="stable")[::-1]


def non_maximum_suppression(bbox, thresh: float, score=None, limit: int | None = None):
    """Suppress boxes by their overlap with higher-scored ones.

    Boxes are visited from the highest score down (in index order when ``score`` is None); a box is
    kept when its IoU with every box kept before it is below ``thresh`` (IoU >= ``thresh``
    suppresses). Ties in ``score`` are visited in descending index order.

    Parameters
    ----------
    bbox : array, shape (R, 4)
        Boxes as (y_min, x_min, y_max, x_max); NumPy or CuPy.
    thresh : float
        IoU threshold.
    score : array, shape (R,), optional
        Confidence of each box.
    limit : int, optional
        Keep at most this many boxes (the highest-scored ones); None keeps all that survive.

    Returns
    -------
    array of int32, shape (K,)
        Indices of the kept boxes in descending order of score, K <= R (and K <= ``limit``).
    """
    fname = "non_maximum_suppression"
    check_bbox(fname, "bbox", bbox)
    xp = backend.get_array_module(bbox)
    n = bbox.shape[0]
    if score is not None and tuple(score.shape) != (n,):
        raise ValueError(f"{fname}: score must have shape (R,) = ({n},) like bbox (bbox.shape={tuple(bbox.shape)}), "
                         f"got score.shape={tuple(score.shape)}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, numpy.integer)) or limit < 0):
        raise ValueError(f"{fname}: limit must be None or an int >= 0, got {limit!r}")
    if n == 0 or limit == 0:
        return xp.zeros((0,), numpy.int32)
    order = descending_order(score) if score is not None else xp.arange(n)
    boxes = bbox[order]
    kept = []                       # positions in ``boxes``
    for start in range(0, n, _BLOCK):
        block = boxes[start:start + _BLOCK]
        alive = numpy.ones(len(block), bool)
        if kept:
            overlap = pairwise_iou(block, boxes[xp.asarray(kept)]) >= thresh
            alive &= ~backend.to_cpu(overlap.any(axis=1))
        suppresses = backend.to_cpu(pairwise_iou(block, block) >= thresh)
        for i in numpy.flatnonzero(alive):
            if not alive[i]:
                continue
            kept.append(start + int(i))
            if limit is not None and len(kept) >= limit:
                return order[xp.asarray(kept)].astype(numpy.int32)
            alive[i + 1:] &= ~suppresses[i, i + 1:]
    return order[xp.asarray(kept)].astype(numpy.int32)
