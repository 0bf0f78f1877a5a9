"""What the COCO evaluations of boxes and of masks share: pycocotools' COCOeval on annotations built
from arrays, and ChainerCV's summary of its precision and recall tables."""
import contextlib
import io

import numpy

from kusari.vision.evaluations._voc import check_labels

# (key, AP or AR, IoU threshold (None: the mean over 0.50:0.95), area range, max detections); the
# area-dependent entries exist only when ground-truth areas are given
_SUMMARIES = (
    ("ap/iou=0.50:0.95/area=all/max_dets=100", True, None, "all", 100),
    ("ap/iou=0.50/area=all/max_dets=100", True, 0.5, "all", 100),
    ("ap/iou=0.75/area=all/max_dets=100", True, 0.75, "all", 100),
    ("ar/iou=0.50:0.95/area=all/max_dets=1", False, None, "all", 1),
    ("ar/iou=0.50:0.95/area=all/max_dets=10", False, None, "all", 10),
    ("ar/iou=0.50:0.95/area=all/max_dets=100", False, None, "all", 100),
)
_AREA_SUMMARIES = tuple(
    (f"{kind}/iou=0.50:0.95/area={area}/max_dets=100", kind == "ap", None, area, 100)
    for kind in ("ap", "ar") for area in ("small", "medium", "large"))


def coco_evaluate(fname: str, iou_type: str, images: list, gt_annotations: list, pred_annotations: list,
                  with_areas: bool) -> dict:
    """Run COCOeval (``iou_type`` 'bbox' or 'segm') and summarize it as ChainerCV 0.13.1 does.

    ``images``: [{'id': ...}] (with 'height'/'width' for 'segm'); annotations carry 'category_id'.
    Returns, for each summary key, a float64 array over classes 0..max label (nan for labels
    absent from both sides) and under 'm' + key the nan-ignoring mean over present classes; plus
    'coco_eval' (the COCOeval object) and 'existent_labels' (sorted class ids that occur).
    """
    import pycocotools.coco
    import pycocotools.cocoeval

    labels = sorted({int(a["category_id"]) for a in gt_annotations + pred_annotations})
    if not labels:
        raise ValueError(f"{fname}: neither the predictions nor the ground truth hold any object, "
                         "so no class can be evaluated")
    gt_coco = pycocotools.coco.COCO()
    pred_coco = pycocotools.coco.COCO()
    for coco, annotations in ((gt_coco, gt_annotations), (pred_coco, pred_annotations)):
        coco.dataset["categories"] = [{"id": label} for label in labels]
        coco.dataset["annotations"] = annotations
        coco.dataset["images"] = images
    with contextlib.redirect_stdout(io.StringIO()):     # pycocotools reports progress on stdout
        pred_coco.createIndex()
        gt_coco.createIndex()
        coco_eval = pycocotools.cocoeval.COCOeval(gt_coco, pred_coco, iou_type)
        coco_eval.evaluate()
        coco_eval.accumulate()

    results = {"coco_eval": coco_eval}
    params = coco_eval.params
    for key, is_ap, iou_thresh, area, max_dets in _SUMMARIES + (_AREA_SUMMARIES if with_areas else ()):
        table = coco_eval.eval["precision" if is_ap else "recall"]   # (T, R, K, A, M) or (T, K, A, M)
        if iou_thresh is not None:
            table = table[params.iouThrs == iou_thresh]
        table = table[..., params.areaRngLbl.index(area), params.maxDets.index(max_dets)]
        per_class, mean = _summarize(table)
        results[key] = numpy.full(labels[-1] + 1, numpy.nan)
        results[key][labels] = per_class
        results["m" + key] = mean
    results["existent_labels"] = labels
    return results


def _summarize(table):
    """Per-class mean of a precision / recall table whose last axis is the class, -1 marking 'no
    value': float32 (n_class,), nan for classes without values; and the mean over classes."""
    table = numpy.where(table == -1, numpy.nan, table).reshape(-1, table.shape[-1])
    valid = ~numpy.isnan(table).all(axis=0)
    per_class = numpy.full(table.shape[1], numpy.nan, numpy.float32)
    per_class[valid] = numpy.nanmean(table[:, valid], axis=0)
    return per_class, (numpy.nanmean(per_class) if valid.any() else numpy.nan)


def per_image(fname: str, n_preds: int, n_gts: int, i: int, pred_label, pred_score, gt_label, gt_area,
              gt_crowded) -> tuple:
    """Check one image's labels, scores, areas and crowd flags against its counts; returns the
    areas (None if not given) and crowd flags (all False if not given) as lists."""
    check_labels(fname, f"pred_labels[{i}]", pred_label, n_preds, "predictions")
    if tuple(pred_score.shape) != (n_preds,):
        raise ValueError(f"{fname}: pred_scores[{i}].shape={tuple(pred_score.shape)} does not match the "
                         f"{n_preds} predictions")
    check_labels(fname, f"gt_labels[{i}]", gt_label, n_gts, "ground-truth objects")
    for name, value in (("gt_areas", gt_area), ("gt_crowdeds", gt_crowded)):
        if value is not None and tuple(value.shape) != (n_gts,):
            raise ValueError(f"{fname}: {name}[{i}].shape={tuple(value.shape)} does not match the {n_gts} "
                             "ground-truth objects")
    areas = None if gt_area is None else gt_area.tolist()
    crowded = [False] * n_gts if gt_crowded is None else [bool(c) for c in gt_crowded]
    return areas, crowded
