"""MS COCO instance segmentation metrics through pycocotools (mask IoU), with ChainerCV 0.13.1's keys."""
import numpy

from kusari.vision.evaluations._coco import coco_evaluate, per_image
from kusari.vision.evaluations._voc import zip_images
from kusari.vision.utils.mask.mask_iou import check_masks


def eval_instance_segmentation_coco(pred_masks, pred_labels, pred_scores, gt_masks, gt_labels, gt_areas=None,
                                    gt_crowdeds=None) -> dict:
    """Evaluate instance masks of N images with the MS COCO evaluation code (pycocotools, 'segm').

    Parameters
    ----------
    pred_masks : iterable of bool arrays, N entries of shape (R, H, W)
    pred_labels : iterable of int arrays, N entries of shape (R,)
    pred_scores : iterable of arrays, N entries of shape (R,)
    gt_masks : iterable of bool arrays, N entries of shape (G, H, W)
    gt_labels : iterable of int arrays, N entries of shape (G,)
    gt_areas : iterable of arrays, N entries of shape (G,), optional
        Object areas for the small / medium / large metrics (computed only when given).
    gt_crowdeds : iterable of bool arrays, N entries of shape (G,), optional

    Returns
    -------
    dict
        The keys of :func:`kusari.vision.evaluations.eval_detection_coco`, for masks.
    """
    import pycocotools.mask

    fname = "eval_instance_segmentation_coco"
    images, gt_annotations, pred_annotations = [], [], []
    for i, (pred_mask, pred_label, pred_score, gt_mask, gt_label, gt_area, gt_crowded) in enumerate(zip_images(
            fname, pred_masks=pred_masks, pred_labels=pred_labels, pred_scores=pred_scores, gt_masks=gt_masks,
            gt_labels=gt_labels, gt_areas=gt_areas, gt_crowdeds=gt_crowdeds)):
        check_masks(fname, f"pred_masks[{i}]", pred_mask)
        check_masks(fname, f"gt_masks[{i}]", gt_mask)
        if pred_mask.shape[1:] != gt_mask.shape[1:]:
            raise ValueError(f"{fname}: pred_masks[{i}] and gt_masks[{i}] differ in image size "
                             f"(shapes {tuple(pred_mask.shape)} and {tuple(gt_mask.shape)})")
        areas, crowded = per_image(fname, len(pred_mask), len(gt_mask), i, pred_label, pred_score, gt_label,
                                   gt_area, gt_crowded)
        image_id = i + 1
        pred_rles = _encode(pycocotools.mask, pred_mask)
        for rle, label, score in zip(pred_rles, pred_label.tolist(), pred_score.tolist()):
            pred_annotations.append({"segmentation": rle, "area": pycocotools.mask.area(rle), "image_id": image_id,
                                     "category_id": label, "score": score, "iscrowd": 0,
                                     "id": len(pred_annotations) + 1})
        gt_rles = _encode(pycocotools.mask, gt_mask)
        for k, (rle, label, crowd) in enumerate(zip(gt_rles, gt_label.tolist(), crowded)):
            gt_annotations.append({"segmentation": rle,
                                   "area": pycocotools.mask.area(rle) if areas is None else areas[k],
                                   "image_id": image_id, "category_id": label, "iscrowd": crowd,
                                   "id": len(gt_annotations) + 1})
        images.append({"id": image_id, "height": gt_mask.shape[1], "width": gt_mask.shape[2]})
    return coco_evaluate(fname, "segm", images, gt_annotations, pred_annotations, gt_areas is not None)


def _encode(mask_tools, masks):
    """COCO run-length encodings of (R, H, W) boolean masks (pycocotools wants (H, W, R) Fortran order)."""
    if len(masks) == 0:
        return []
    return mask_tools.encode(numpy.asfortranarray(masks.transpose(1, 2, 0).astype(numpy.uint8)))
