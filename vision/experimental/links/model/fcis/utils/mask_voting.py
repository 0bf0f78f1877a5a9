"""mask_voting: FCIS's post-processing: per-class NMS, then each kept mask replaced by the score-weighted vote
of the masks whose boxes overlap its box."""
import numpy

from kusari.vision import _checks
from kusari.vision.transforms import resize
from kusari.vision.utils import non_maximum_suppression
from kusari.vision.utils.bbox.bbox_iou import pairwise_iou


def mask_voting(seg_prob, bbox, cls_prob, size, score_thresh, nms_thresh, mask_merge_thresh, binary_thresh,
                limit=100, bg_label=0):
    """Refine the mask probabilities of RoIs by merging the masks of overlapping RoIs.

    1. For each foreground class, non-maximum suppression (at ``nms_thresh``) of all the boxes by
       their probability of that class.
    2. Of the boxes kept in all classes, those scored at least ``score_thresh`` and at least the
       ``limit``-th highest score survive.
    3. Each survivor is voted: every RoI whose box has an IoU of at least ``mask_merge_thresh``
       with it pastes its mask (``seg_prob`` resized to its box rounded to pixels, binarized at
       ``binary_thresh``) into an image of ``size``, weighted by its probability of the survivor's
       class (the weights of a vote sum to 1). The pixels of the vote at least ``binary_thresh``
       give the merged box; the vote inside it, resized to ``(RH, RW)`` and clipped to [0, 1], is
       the merged mask. A vote without such pixels is dropped.

    Parameters
    ----------
    seg_prob : numpy.ndarray, shape (R, RH, RW)
        Foreground probability of each RoI's mask, over its box.
    bbox : numpy.ndarray, shape (R, 4)
        The RoIs' boxes ``(y_min, x_min, y_max, x_max)`` in the image's pixels, floating point.
    cls_prob : numpy.ndarray, shape (R, L + 1)
        Class probabilities of each RoI, the background's included.
    size : tuple of two ints
        ``(H, W)`` of the image.
    score_thresh, nms_thresh, mask_merge_thresh, binary_thresh : float
        The thresholds above.
    limit : int
        Most masks returned.
    bg_label : int
        The background's column of ``cls_prob``.

    Returns
    -------
    v_seg_prob : numpy.ndarray of float32, shape (N, RH, RW)
        The merged masks' probabilities, each over its box.
    v_bbox : numpy.ndarray of float32, shape (N, 4)
        The merged boxes (integer coordinates).
    v_label : numpy.ndarray of int32, shape (N,)
        Their classes among the foreground ones (``cls_prob``'s column minus one when
        ``bg_label`` is 0), in ascending order.
    v_score : numpy.ndarray, shape (N,)
        Their scores (``cls_prob``'s dtype), descending within each class.
    """
    fname = "mask_voting"
    _check_inputs(fname, seg_prob, bbox, cls_prob, limit, bg_label)
    H, W = _checks.check_size(fname, size)
    n_class = cls_prob.shape[1]
    fg_class = numpy.array([c for c in range(n_class) if c != bg_label], numpy.int64)

    # 1. per-class NMS over every box
    kept = [non_maximum_suppression(bbox, nms_thresh, cls_prob[:, c]) for c in fg_class]
    kept_class = numpy.repeat(numpy.arange(len(fg_class)), [len(k) for k in kept])
    kept = numpy.concatenate(kept).astype(numpy.int64)
    kept_score = cls_prob[kept, fg_class[kept_class]]
    # 2. at least score_thresh and the limit-th highest score (a Python max, compared in the scores' dtype)
    if kept.size == 0:
        return _empty(seg_prob, cls_prob)
    n_keep = min(kept.size, limit)
    thresh = max(numpy.sort(kept_score)[::-1][n_keep - 1], score_thresh)
    survive = kept_score >= thresh
    kept, kept_class, kept_score = kept[survive], kept_class[survive], kept_score[survive]

    # 3. the votes: each RoI that takes part pastes the same binary mask into every vote
    voter = pairwise_iou(bbox, bbox[kept]) >= mask_merge_thresh        # (R, K)
    masks = _BinaryMasks(seg_prob, bbox, numpy.flatnonzero(voter.any(axis=1)), (H, W), binary_thresh)
    v_seg_prob, v_bbox, v_index = [], [], []
    # one pass per merged mask (at most ``limit``): its resize needs a size of its own
    for k, (box, c) in enumerate(zip(kept, fg_class[kept_class])):
        members = numpy.flatnonzero(voter[:, k])
        weight = cls_prob[members, c]
        if members.size == 0:
            continue
        weight = weight / weight.sum()
        vote = masks.vote(members, weight)
        if vote is None:
            continue
        crop, y_min, x_min = vote
        v_seg_prob.append(numpy.clip(resize(crop[None], seg_prob.shape[1:])[0], 0.0, 1.0))
        v_bbox.append((y_min, x_min, y_min + crop.shape[0], x_min + crop.shape[1]))
        v_index.append(k)
    if not v_index:
        return _empty(seg_prob, cls_prob)
    v_index = numpy.array(v_index)
    return (numpy.stack(v_seg_prob).astype(numpy.float32, copy=False), numpy.array(v_bbox, numpy.float32),
            kept_class[v_index].astype(numpy.int32), kept_score[v_index])


class _BinaryMasks:
    """The binarized masks of some RoIs, as the flat image pixels (``y * W + x``) each covers.

    Mask ``j`` is ``seg_prob[j]`` resized to ``bbox[j]`` rounded to pixels, at least ``thresh``, and
    cut to the image (a box without pixels covers none).
    """

    def __init__(self, seg_prob, bbox, rois, size, thresh):
        H, W = size
        self.size = size
        self.thresh = thresh
        box = numpy.round(bbox).astype(numpy.int64)
        self.start = numpy.zeros(len(bbox), numpy.int64)
        self.count = numpy.zeros(len(bbox), numpy.int64)
        pixels = []
        offset = 0
        # one resize per RoI (each to its own size), OpenCV's or Pillow's as kusari.vision's resize
        for j in rois:
            y_min, x_min, y_max, x_max = box[j]
            if y_max <= y_min or x_max <= x_min:
                continue
            inside = resize(seg_prob[j].astype(numpy.float32)[None], (y_max - y_min, x_max - x_min))[0] >= thresh
            y, x = numpy.nonzero(inside)
            y, x = y + y_min, x + x_min
            in_image = (y >= 0) & (y < H) & (x >= 0) & (x < W)
            flat = y[in_image] * W + x[in_image]
            self.start[j], self.count[j] = offset, flat.size
            offset += flat.size
            pixels.append(flat)
        self.pixels = numpy.concatenate(pixels) if pixels else numpy.zeros(0, numpy.int64)

    def vote(self, members, weight):
        """The vote of ``members`` with ``weight``, cut to its pixels at least ``thresh``: (crop, y_min,
        x_min), or None without such pixels. As in ChainerCV, the weights are rounded to float32 and each
        pixel sums them in float32, member after member."""
        H, W = self.size
        count = self.count[members]
        total = int(count.sum())
        if total == 0 and self.thresh > 0:
            return None
        # the pixels of all members, member after member
        first = numpy.repeat(self.start[members] - (numpy.cumsum(count) - count), count)
        flat = self.pixels[first + numpy.arange(total)]
        y, x = numpy.divmod(flat, W)
        if self.thresh > 0:      # the vote is 0 elsewhere: its members' pixels bound what passes
            y0, x0 = int(y.min()), int(x.min())
            height, width = int(y.max()) + 1 - y0, int(x.max()) + 1 - x0
        else:                    # every pixel of the image passes
            y0, x0, height, width = 0, 0, H, W
        vote = numpy.zeros(height * width, numpy.float32)
        numpy.add.at(vote, (y - y0) * width + (x - x0), numpy.repeat(weight.astype(numpy.float32), count))
        vote = vote.reshape(height, width)
        rows = numpy.flatnonzero((vote >= self.thresh).any(axis=1))
        if rows.size == 0:
            return None
        cols = numpy.flatnonzero((vote >= self.thresh).any(axis=0))
        crop = vote[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
        return crop, y0 + int(rows[0]), x0 + int(cols[0])


def _empty(seg_prob, cls_prob):
    return (numpy.zeros((0,) + seg_prob.shape[1:], numpy.float32), numpy.zeros((0, 4), numpy.float32),
            numpy.zeros((0,), numpy.int32), numpy.zeros((0,), cls_prob.dtype))


def _check_inputs(fname, seg_prob, bbox, cls_prob, limit, bg_label) -> None:
    _checks.check_bbox(fname, bbox, "bbox")
    for name, array, ndim in (("seg_prob", seg_prob, 3), ("cls_prob", cls_prob, 2)):
        if not isinstance(array, numpy.ndarray) or array.dtype.kind != "f":
            raise TypeError(f"{fname}: {name} must be a floating-point numpy.ndarray, got "
                            f"{getattr(array, 'dtype', type(array).__name__)}")
        if array.ndim != ndim or array.shape[0] != bbox.shape[0]:
            raise ValueError(f"{fname}: {name} must have {ndim} dimensions and one row per box "
                             f"(bbox.shape={bbox.shape}), got {name}.shape={array.shape}")
    if isinstance(limit, bool) or not isinstance(limit, (int, numpy.integer)) or limit < 1:
        raise ValueError(f"{fname}: limit must be a positive int, got {limit!r}")
    if isinstance(bg_label, bool) or not isinstance(bg_label, (int, numpy.integer)) \
            or not 0 <= bg_label < cls_prob.shape[1]:
        raise ValueError(f"{fname}: bg_label must be a column of cls_prob (shape={cls_prob.shape}), got {bg_label!r}")
