"""MS COCO detection metrics through pycocotools: AP and AR over IoU thresholds, object sizes and
detection counts, per class and averaged, with the result keys of ChainerCV 0.13.1."""
import numpy

from kusari.vision.evaluations._coco import coco_evaluate, per_image
from kusari.vision.evaluations._voc import zip_images
from kusari.vision.utils.bbox.bbox_iou import check_bbox


def eval_detection_coco(pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels, gt_areas=None,
                        gt_crowdeds=None) -> dict:
    """Evaluate detections of N images with the MS COCO evaluation code (pycocotools).

    Parameters
    ----------
    pred_bboxes : iterable of arrays, N entries of shape (R, 4)
        (y_min, x_min, y_max, x_max), float32.
    pred_labels : iterable of int arrays, N entries of shape (R,)
    pred_scores : iterable of arrays, N entries of shape (R,)
    gt_bboxes : iterable of arrays, N entries of shape (G, 4)
    gt_labels : iterable of int arrays, N entries of shape (G,)
    gt_areas : iterable of arrays, N entries of shape (G,), optional
        Object areas, which decide the small / medium / large ranges; without them those
        metrics are not computed (the box areas stand in where pycocotools needs one).
    gt_crowdeds : iterable of bool arrays, N entries of shape (G,), optional
        Crowd regions (matches to them are ignored). None: no crowds.

    Returns
    -------
    dict
        For ``key`` in ``ap/iou=0.50:0.95/area=all/max_dets=100``, ``ap/iou=0.50/area=all/max_dets=100``,
        ``ap/iou=0.75/area=all/max_dets=100``, ``ar/iou=0.50:0.95/area=all/max_dets={1,10,100}`` and,
        with ``gt_areas``, ``{ap,ar}/iou=0.50:0.95/area={small,medium,large}/max_dets=100``: ``key``
        maps to a float64 array over classes 0 .. largest class id (nan for classes absent from
        both sides or without a value) and ``'m' + key`` to the mean over classes with a value.
        Also ``'coco_eval'`` (the ``pycocotools.cocoeval.COCOeval``) and ``'existent_labels'``
        (the sorted class ids that occur).
    """
    fname = "eval_detection_coco"
    images, gt_annotations, pred_annotations = [], [], []
    for i, (pred_bbox, pred_label, pred_score, gt_bbox, gt_label, gt_area, gt_crowded) in enumerate(zip_images(
            fname, pred_bboxes=pred_bboxes, pred_labels=pred_labels, pred_scores=pred_scores, gt_bboxes=gt_bboxes,
            gt_labels=gt_labels, gt_areas=gt_areas, gt_crowdeds=gt_crowdeds)):
        check_bbox(fname, f"pred_bboxes[{i}]", pred_bbox)
        check_bbox(fname, f"gt_bboxes[{i}]", gt_bbox)
        areas, crowded = per_image(fname, len(pred_bbox), len(gt_bbox), i, pred_label, pred_score, gt_label,
                                   gt_area, gt_crowded)
        image_id = i + 1                                 # COCO ids start at 1
        for box, area, label, score in zip(*_boxes(pred_bbox), pred_label.tolist(), pred_score.tolist()):
            pred_annotations.append(dict(box, area=area, image_id=image_id, category_id=label, score=score,
                                         iscrowd=0, id=len(pred_annotations) + 1))
        box_list, box_areas = _boxes(gt_bbox)
        for box, area, label, crowd in zip(box_list, box_areas if areas is None else areas, gt_label.tolist(),
                                           crowded):
            gt_annotations.append(dict(box, area=area, image_id=image_id, category_id=label, iscrowd=crowd,
                                       id=len(gt_annotations) + 1))
        images.append({"id": image_id})
    return coco_evaluate(fname, "bbox", images, gt_annotations, pred_annotations, gt_areas is not None)


def _boxes(bbox):
    """Each box as a COCO annotation's {'bbox': [x, y, width, height]} (rounded to 2 decimals in the
    boxes' dtype, as ChainerCV rounds) and each box's area."""
    y_min, x_min, y_max, x_max = bbox.T
    height = y_max - y_min
    width = x_max - x_min
    rounded = numpy.round(numpy.stack([x_min, y_min, width, height], axis=1), 2).tolist()
    return [{"bbox": r} for r in rounded], (height * width).tolist()
