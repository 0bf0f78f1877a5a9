"""PASCAL VOC style instance segmentation metric (as FCIS evaluates): average precision of ranked masks."""
from kusari.vision.evaluations._voc import blockwise_iou, nanmean, voc_prec_rec, zip_images
from kusari.vision.evaluations.eval_detection_voc import calc_detection_voc_ap
from kusari.vision.utils.mask.mask_iou import check_masks, mask_iou


def eval_instance_segmentation_voc(pred_masks, pred_labels, pred_scores, gt_masks, gt_labels,
                                   iou_thresh: float = 0.5, use_07_metric: bool = False) -> dict:
    """Average precision of each class over a data set of N images, matching masks by their IoU.

    Parameters
    ----------
    pred_masks : iterable of bool arrays, N entries of shape (R, H, W)
    pred_labels : iterable of int arrays, N entries of shape (R,), classes in [0, n_fg_class - 1]
    pred_scores : iterable of arrays, N entries of shape (R,)
    gt_masks : iterable of bool arrays, N entries of shape (G, H, W)
    gt_labels : iterable of int arrays, N entries of shape (G,)
    iou_thresh : float
        A predicted mask matches a ground-truth mask when their IoU reaches this.
    use_07_metric : bool
        VOC 2007's 11-point interpolated AP instead of the area under the PR curve.

    Returns
    -------
    dict
        ``'ap'``: float64 array (n_fg_class,), nan for a class absent from both; ``'map'``: their
        nan-ignoring mean.
    """
    prec, rec = _prec_rec("eval_instance_segmentation_voc", pred_masks, pred_labels, pred_scores, gt_masks,
                          gt_labels, iou_thresh)
    ap = calc_detection_voc_ap(prec, rec, use_07_metric=use_07_metric)
    return {"ap": ap, "map": nanmean(ap)}


def calc_instance_segmentation_voc_prec_rec(pred_masks, pred_labels, pred_scores, gt_masks, gt_labels,
                                            iou_thresh: float):
    """Precision and recall of each class's ranked masks (see :func:`eval_instance_segmentation_voc`).

    Returns
    -------
    prec, rec : lists of float64 arrays, indexed by class up to the largest class id seen
        ``prec[l]`` is None for a class absent from predictions and ground truth; ``rec[l]`` is
        None for a class without ground truth.
    """
    return _prec_rec("calc_instance_segmentation_voc_prec_rec", pred_masks, pred_labels, pred_scores, gt_masks,
                     gt_labels, iou_thresh)


def _prec_rec(fname, pred_masks, pred_labels, pred_scores, gt_masks, gt_labels, iou_thresh):
    def check(mask, which, i):
        check_masks(fname, f"{which}_masks[{i}]", mask)
        return mask.shape[0]

    def iou(pred_mask, gt_mask):
        if pred_mask.shape[1:] != gt_mask.shape[1:]:
            raise ValueError(f"{fname}: predicted and ground-truth masks of one image differ in size "
                             f"(pred {tuple(pred_mask.shape)}, gt {tuple(gt_mask.shape)})")
        return mask_iou(pred_mask, gt_mask)

    images = zip_images(fname, pred_masks=pred_masks, pred_labels=pred_labels, pred_scores=pred_scores,
                        gt_masks=gt_masks, gt_labels=gt_labels, gt_difficults=None)
    return voc_prec_rec(fname, images, check, blockwise_iou(iou), iou_thresh)
