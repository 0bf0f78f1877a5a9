"""Per-class thresholding and non-maximum suppression of a dense detector's scored boxes (SSD, YOLO)."""
import numpy

from kusari import backend
from kusari.vision.utils import non_maximum_suppression


def suppress_per_class(bbox, score, nms_thresh, score_thresh):
    """For each class, the boxes scoring at least ``score_thresh``, then those that survive NMS.

    Parameters
    ----------
    bbox : array, shape (K, 4)
        Candidate boxes (y_min, x_min, y_max, x_max), shared by every class.
    score : array, shape (K, L)
        Each box's score for each of ``L`` foreground classes.
    nms_thresh : float or None
        IoU threshold of :func:`kusari.vision.utils.non_maximum_suppression`; None skips it.
    score_thresh : float
        A box is a candidate for a class when its score is at least this.

    Returns
    -------
    (bbox, label, score)
        float32 ``(R, 4)``, int32 ``(R,)``, float32 ``(R,)``: class 0's boxes first, each class's
        in descending score order (ChainerCV's order); ``R`` may be 0.
    """
    xp = backend.get_array_module(score)
    passing = score >= score_thresh
    bboxes, labels, scores = [], [], []
    for l in range(score.shape[1]):
        index = xp.flatnonzero(passing[:, l])
        if nms_thresh is not None:
            index = index[non_maximum_suppression(bbox[index], nms_thresh, score[index, l])]
        bboxes.append(bbox[index])
        labels.append(xp.full(len(index), l, dtype=numpy.int32))
        scores.append(score[index, l])
    return (xp.concatenate(bboxes).astype(numpy.float32, copy=False), xp.concatenate(labels),
            xp.concatenate(scores).astype(numpy.float32, copy=False))
