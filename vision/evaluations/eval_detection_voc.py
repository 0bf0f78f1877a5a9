"""PASCAL VOC detection metric: average precision per class of ranked boxes, with difficult objects."""
import numpy

from kusari.vision.evaluations._voc import nanmean, voc_prec_rec, zip_images
from kusari.vision.utils.bbox.bbox_iou import check_bbox, pairwise_iou


def eval_detection_voc(pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels, gt_difficults=None,
                       iou_thresh: float = 0.5, use_07_metric: bool = False) -> dict:
    """Average precision of each class over a data set of N images, as the PASCAL VOC evaluation code.

    Parameters
    ----------
    pred_bboxes : iterable of arrays, N entries of shape (R, 4)
        Predicted boxes per image, (y_min, x_min, y_max, x_max), float32.
    pred_labels : iterable of int arrays, N entries of shape (R,)
        Their classes in [0, n_fg_class - 1].
    pred_scores : iterable of arrays, N entries of shape (R,)
        Their confidences.
    gt_bboxes : iterable of arrays, N entries of shape (G, 4)
    gt_labels : iterable of int arrays, N entries of shape (G,)
    gt_difficults : iterable of bool arrays, N entries of shape (G,), optional
        Difficult objects neither count as misses nor let a detection of them count as a false
        positive. None: no object is difficult.
    iou_thresh : float
        A detection matches a ground-truth box when their IoU reaches this (boxes are compared as
        VOC's integer pixel boxes: ends + 1).
    use_07_metric : bool
        VOC 2007's 11-point interpolated AP instead of the area under the PR curve.

    Returns
    -------
    dict
        ``'ap'``: float64 array (n_fg_class,), nan for a class absent from both predictions and
        non-difficult ground truth; ``'map'``: the nan-ignoring mean of ``'ap'``.
    """
    prec, rec = _prec_rec("eval_detection_voc", pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels,
                          gt_difficults, iou_thresh)
    ap = calc_detection_voc_ap(prec, rec, use_07_metric=use_07_metric)
    return {"ap": ap, "map": nanmean(ap)}


def calc_detection_voc_prec_rec(pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels, gt_difficults=None,
                                iou_thresh: float = 0.5):
    """Precision and recall of each class's ranked detections (see :func:`eval_detection_voc`).

    Returns
    -------
    prec, rec : lists of float64 arrays, indexed by class up to the largest class id seen
        ``prec[l][k]`` / ``rec[l][k]`` after the k + 1 highest-scored detections of class l.
        ``prec[l]`` is None for a class absent from predictions and ground truth; ``rec[l]`` is
        None for a class without non-difficult ground truth.
    """
    return _prec_rec("calc_detection_voc_prec_rec", pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels,
                     gt_difficults, iou_thresh)


def calc_detection_voc_ap(prec, rec, use_07_metric: bool = False):
    """Average precision of each class from its precision and recall (see :func:`eval_detection_voc`).

    Parameters
    ----------
    prec, rec : lists of arrays (or None), one entry per class
    use_07_metric : bool
        The mean of the best precision at recall >= 0, 0.1, ..., 1 (VOC 2007) instead of the area
        under the monotone (running-maximum) precision-recall curve.

    Returns
    -------
    numpy.ndarray of float64, shape (n_class,)
        nan where ``prec[l]`` or ``rec[l]`` is None.
    """
    if len(prec) != len(rec):
        raise ValueError(f"calc_detection_voc_ap: prec and rec must have one entry per class, got {len(prec)} "
                         f"and {len(rec)} entries")
    ap = numpy.full(len(prec), numpy.nan)
    for label, (p, r) in enumerate(zip(prec, rec)):
        if p is None or r is None:
            continue
        p = numpy.nan_to_num(p)
        if use_07_metric:
            ap[label] = 0
            for t in numpy.arange(0.0, 1.1, 0.1):
                reached = r >= t
                ap[label] += (numpy.max(p[reached]) if reached.any() else 0) / 11
        else:
            # precision made non-increasing from the right; area summed where recall steps
            precision = numpy.maximum.accumulate(numpy.concatenate(([0], p, [0]))[::-1])[::-1]
            recall = numpy.concatenate(([0], r, [1]))
            step = numpy.flatnonzero(recall[1:] != recall[:-1])
            ap[label] = numpy.sum((recall[step + 1] - recall[step]) * precision[step + 1])
    return ap


def _prec_rec(fname, pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels, gt_difficults, iou_thresh):
    def check(bbox, which, i):
        check_bbox(fname, f"{which}_bboxes[{i}]", bbox)
        return bbox.shape[0]

    def class_iou(pred_bbox, pred_label, gt_bbox, gt_label):
        # VOC counts pixels: a box covers its end row and column; boxes of other classes never match
        iou = pairwise_iou(_plus_one(pred_bbox), _plus_one(gt_bbox))
        return numpy.where(pred_label[:, None] == gt_label, iou, -numpy.inf)

    images = zip_images(fname, pred_bboxes=pred_bboxes, pred_labels=pred_labels, pred_scores=pred_scores,
                        gt_bboxes=gt_bboxes, gt_labels=gt_labels, gt_difficults=gt_difficults)
    return voc_prec_rec(fname, images, check, class_iou, iou_thresh)


def _plus_one(bbox):
    bbox = bbox.copy()
    bbox[:, 2:] += 1
    return bbox
