"""What the PASCAL VOC style evaluations of boxes and of masks share: matching predictions to ground
truth class by class, precision and recall over the ranked predictions."""
import itertools

import numpy

from kusari.vision.utils.bbox.non_maximum_suppression import descending_order


def check_labels(fname: str, argname: str, label, n: int, n_name: str) -> None:
    """Raise unless ``label`` is an (n,) array of non-negative integers."""
    if tuple(label.shape) != (n,):
        raise ValueError(f"{fname}: {argname}.shape={tuple(label.shape)} does not match the {n} {n_name}")
    if label.dtype.kind not in "iu":
        raise TypeError(f"{fname}: {argname} must hold integer class ids, got dtype {label.dtype}")
    if n and int(label.min()) < 0:
        raise ValueError(f"{fname}: {argname} holds a negative class id {int(label.min())}; "
                         "class ids run from 0 to n_fg_class - 1")


def nanmean(values):
    """numpy.nanmean without its warning when every entry is nan (the result is then nan)."""
    values = numpy.asarray(values)
    return numpy.nanmean(values) if (~numpy.isnan(values)).any() else values.dtype.type(numpy.nan)


def zip_images(fname: str, **iterables):
    """Zip per-image iterables, raising a ValueError naming them when their lengths differ (None
    entries yield None)."""
    names = list(iterables)
    iterators = [itertools.repeat(None) if v is None else iter(v) for v in iterables.values()]
    finite = [v is not None for v in iterables.values()]
    end = object()
    for i in itertools.count():
        items = [next(it, end) if f else next(it) for it, f in zip(iterators, finite)]
        ended = [name for name, item in zip(names, items) if item is end]
        if len(ended) == sum(finite):
            return
        if ended:
            going = [name for name, item, f in zip(names, items, finite) if f and item is not end]
            raise ValueError(f"{fname}: {', '.join(ended)} ended after {i} images but {', '.join(going)} "
                             "did not; give one entry per image in each")
        yield items


def blockwise_iou(iou):
    """A ``class_iou`` for ``voc_prec_rec`` that calls ``iou(pred_regions, gt_regions)`` on the
    pairs of each class only (for masks, where every IoU costs a pass over the pixels)."""
    def class_iou(pred_region, pred_label, gt_region, gt_label):
        overlap = numpy.full((len(pred_label), len(gt_label)), -numpy.inf)
        for label in numpy.intersect1d(pred_label, gt_label):
            p = numpy.flatnonzero(pred_label == label)
            g = numpy.flatnonzero(gt_label == label)
            overlap[numpy.ix_(p, g)] = iou(pred_region[p], gt_region[g])
        return overlap
    return class_iou


def voc_prec_rec(fname, images, check, class_iou, iou_thresh):
    """Precision and recall per class of ranked predictions matched to ground truth.

    ``images`` yields (pred_regions, pred_labels, pred_scores, gt_regions, gt_labels, gt_difficults
    or None) per image; ``check(regions, argname, index)`` validates one image's regions and
    returns their count; ``class_iou(pred_regions, pred_labels, gt_regions, gt_labels)`` gives
    their (P, G) IoU matrix, -inf between different classes. Within an image and class, predictions in descending score order each take the ground truth of highest
    IoU if it reaches ``iou_thresh``: the first to take a ground truth is a true positive, later
    ones false positives; one that takes a difficult ground truth is ignored. Difficult ground
    truth does not count towards recall. Across images, a class's predictions are ranked by score
    (ties: later images and lower-ranked predictions first, as ChainerCV's lists order them).

    Returns ``(prec, rec)``: lists indexed by class up to the largest class id seen; ``prec[l]`` is
    None for a class absent from both, ``rec[l]`` None for one without non-difficult ground truth.
    """
    labels, scores, matches = [], [], []     # per image, predictions in descending score order
    n_pos = numpy.zeros(0, numpy.int64)       # non-difficult ground truth per class
    seen = set()
    for i, (pred_region, pred_label, pred_score, gt_region, gt_label, gt_difficult) in enumerate(images):
        n_pred = check(pred_region, "pred", i)
        check_labels(fname, f"pred_labels[{i}]", pred_label, n_pred, "predictions")
        if tuple(pred_score.shape) != (n_pred,):
            raise ValueError(f"{fname}: pred_scores[{i}].shape={tuple(pred_score.shape)} does not match "
                             f"the {n_pred} predictions")
        n_gt = check(gt_region, "gt", i)
        check_labels(fname, f"gt_labels[{i}]", gt_label, n_gt, "ground-truth objects")
        if gt_difficult is None:
            gt_difficult = numpy.zeros(n_gt, bool)
        elif tuple(gt_difficult.shape) != (n_gt,):
            raise ValueError(f"{fname}: gt_difficults[{i}].shape={tuple(gt_difficult.shape)} does not match "
                             f"the {n_gt} ground-truth objects")
        gt_label = gt_label.astype(numpy.int64)
        gt_difficult = gt_difficult.astype(bool)
        seen.update(pred_label.tolist(), gt_label.tolist())
        counts = numpy.bincount(gt_label[~gt_difficult], minlength=len(n_pos))
        n_pos = numpy.concatenate([n_pos, numpy.zeros(len(counts) - len(n_pos), numpy.int64)]) + counts

        # within a class, the prediction order of a stable descending sort of the image's scores
        order = descending_order(pred_score)
        pred_label = pred_label[order].astype(numpy.int64)
        match = numpy.zeros(n_pred, numpy.int8)
        if n_gt and n_pred:
            overlap = class_iou(pred_region[order], pred_label, gt_region, gt_label)
            gt_index = overlap.argmax(axis=1)
            hit = ~(overlap.max(axis=1) < iou_thresh)      # a nan IoU counts as a hit, as in ChainerCV
            # the first prediction to reach a ground truth takes it
            first = numpy.zeros(n_pred, bool)
            first[numpy.unique(numpy.where(hit, gt_index, -1), return_index=True)[1]] = True
            match[hit & first] = 1
            match[hit & gt_difficult[gt_index]] = -1
        labels.append(pred_label)
        scores.append(pred_score[order])
        matches.append(match)

    labels, scores, matches = (numpy.concatenate(v) if v else numpy.zeros(0) for v in (labels, scores, matches))
    n_class = max(seen) + 1 if seen else 0
    n_pos = numpy.concatenate([n_pos, numpy.zeros(max(n_class - len(n_pos), 0), numpy.int64)])
    prec = [None] * n_class
    rec = [None] * n_class
    for label in sorted(seen):
        keep = labels == label
        match = matches[keep][descending_order(scores[keep])]
        tp = numpy.cumsum(match == 1)
        fp = numpy.cumsum(match == 0)
        with numpy.errstate(divide="ignore", invalid="ignore"):
            prec[label] = tp / (fp + tp)
        if n_pos[label] > 0:
            rec[label] = tp / n_pos[label]
    return prec, rec
