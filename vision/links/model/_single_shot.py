"""What the single-shot detectors (SSD, YOLO) share: presets, the check of predict's images, and the
per-class thresholding and non-maximum suppression of their scored boxes."""
import numpy

from kusari import backend
from kusari.vision import _checks
from kusari.vision.utils import non_maximum_suppression


def check_n_fg_class(owner: str, n_fg_class) -> int:
    """``n_fg_class`` as an int; a ValueError naming ``owner`` unless it is a positive integer."""
    if isinstance(n_fg_class, bool) or not isinstance(n_fg_class, (int, numpy.integer)) or n_fg_class < 1:
        raise ValueError(f"{owner}: n_fg_class must be a positive int, got {n_fg_class!r}")
    return int(n_fg_class)


def use_preset(model, preset: str, presets: dict) -> None:
    """Set ``model.nms_thresh`` and ``model.score_thresh`` to ``presets[preset]`` (a ValueError names the
    presets otherwise)."""
    if preset not in presets:
        raise ValueError(f"{type(model).__name__}.use_preset: preset must be one of "
                         f"{', '.join(map(repr, presets))}, got {preset!r}")
    model.nms_thresh, model.score_thresh = presets[preset]


def check_images(owner: str, imgs) -> list:
    """``imgs`` as a list of CHW arrays with 3 channels (the checks name ``owner`` and ``imgs[i]``)."""
    imgs = list(imgs)
    for i, img in enumerate(imgs):
        _checks.check_image(owner, img, f"imgs[{i}]", channels=(3,))
    return imgs


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
