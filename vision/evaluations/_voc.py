"""What the PASCAL VOC style evaluations of boxes and of masks share: matching predictions to ground
truth class by class, precision and recall over the ranked predictions."""
import collections
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


def voc_prec_rec(fname, images, check, iou, iou_thresh):
    """Precision and recall per class of ranked predictions matched to ground truth.

    ``images`` yields (pred_regions, pred_labels, pred_scores, gt_regions, gt_labels, gt_difficults
    or None) per image; ``check(regions, argname, index)`` validates one image's regions and
    returns their count; ``iou(pred_regions, gt_regions)`` gives their (P, G) IoU matrix. Within an image and
    class, predictions in descending score order each take the ground truth of highest IoU if it
    reaches ``iou_thresh``: the first to take a ground truth is a true positive, later ones false
    positives; one that takes a difficult ground truth is ignored. Difficult ground truth does not
    count towards recall.

    Returns ``(prec, rec)``: lists indexed by class up to the largest class id seen; ``prec[l]`` is
    None for a class absent from both, ``rec[l]`` None for one without non-difficult ground truth.
    """
    n_pos = collections.defaultdict(int)
    scores = collections.defaultdict(list)
    matches = collections.defaultdict(list)
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
        for label in numpy.unique(numpy.concatenate((pred_label, gt_label)).astype(int)):
            keep = pred_label == label
            order = descending_order(pred_score[keep])
            pred_region_l = pred_region[keep][order]
            scores[label].extend(pred_score[keep][order])
            keep_gt = gt_label == label
            gt_region_l = gt_region[keep_gt]
            difficult_l = gt_difficult[keep_gt].astype(bool)
            n_pos[label] += int(numpy.count_nonzero(~difficult_l))
            if len(pred_region_l) == 0:
                continue
            if len(gt_region_l) == 0:
                matches[label].extend([0] * len(pred_region_l))
                continue
            overlap = iou(pred_region_l, gt_region_l)
            gt_index = overlap.argmax(axis=1)
            hit = ~(overlap.max(axis=1) < iou_thresh)     # a nan IoU counts as a hit, as in ChainerCV
            # the first prediction (in score order) to reach a ground truth takes it
            first = numpy.zeros(len(gt_index), bool)
            first[numpy.unique(numpy.where(hit, gt_index, -1), return_index=True)[1]] = True
            match = numpy.where(hit & first, 1, 0)
            match[hit & difficult_l[gt_index]] = -1
            matches[label].extend(match.tolist())

    n_class = max(n_pos.keys()) + 1 if n_pos else 0
    prec = [None] * n_class
    rec = [None] * n_class
    for label in n_pos:
        match = numpy.array(matches[label], numpy.int8)[descending_order(numpy.array(scores[label]))]
        tp = numpy.cumsum(match == 1)
        fp = numpy.cumsum(match == 0)
        with numpy.errstate(divide="ignore", invalid="ignore"):
            prec[label] = tp / (fp + tp)
        if n_pos[label] > 0:
            rec[label] = tp / n_pos[label]
    return prec, rec
