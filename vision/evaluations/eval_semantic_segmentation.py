"""Semantic segmentation metrics from a pixel confusion matrix: IoU, pixel and class accuracy."""
import numpy

from kusari.vision.evaluations._voc import nanmean, zip_images


def calc_semantic_segmentation_confusion(pred_labels, gt_labels):
    """Confusion matrix of pixel labels over a data set, ignoring ground-truth label -1.

    Parameters
    ----------
    pred_labels : iterable of int arrays, N entries of shape (H, W), labels >= 0
    gt_labels : iterable of int arrays, N entries of the matching shapes, labels >= -1 (-1: ignore)

    Returns
    -------
    numpy.ndarray of int64, shape (n_class, n_class)
        ``confusion[i, j]``: pixels of ground-truth class i predicted as j; n_class is the largest
        label seen plus one.
    """
    fname = "calc_semantic_segmentation_confusion"
    confusion = numpy.zeros((0, 0), numpy.int64)
    for i, (pred, gt) in enumerate(zip_images(fname, pred_labels=pred_labels, gt_labels=gt_labels)):
        if pred.ndim != 2 or gt.ndim != 2 or pred.shape != gt.shape:
            raise ValueError(f"{fname}: pred_labels[{i}] and gt_labels[{i}] must be (H, W) arrays of one shape, "
                             f"got pred shape={tuple(pred.shape)}, gt shape={tuple(gt.shape)}")
        for name, label in (("pred_labels", pred), ("gt_labels", gt)):
            if label.dtype.kind not in "iu":
                raise TypeError(f"{fname}: {name}[{i}] must hold integer labels, got dtype {label.dtype}")
        valid = gt >= 0
        gt_valid = gt[valid].astype(numpy.int64)
        pred_valid = pred[valid].astype(numpy.int64)
        if pred_valid.size and pred_valid.min() < 0:
            raise ValueError(f"{fname}: pred_labels[{i}] has a negative label {int(pred_valid.min())} at a pixel "
                             "whose ground truth is not ignored")
        top = max(int(pred.max()) if pred.size else -1, int(gt.max()) if gt.size else -1)
        if top >= len(confusion):
            grown = numpy.zeros((top + 1, top + 1), numpy.int64)
            grown[:len(confusion), :len(confusion)] = confusion
            confusion = grown
        n = len(confusion)
        confusion += numpy.bincount(n * gt_valid + pred_valid, minlength=n * n).reshape(n, n)
    return confusion


def calc_semantic_segmentation_iou(confusion):
    """IoU of each class from a confusion matrix: N_ii / (sum_j N_ij + sum_j N_ji - N_ii).

    Parameters
    ----------
    confusion : numpy.ndarray, shape (n_class, n_class)

    Returns
    -------
    numpy.ndarray of float64, shape (n_class,)
        nan for a class that appears in neither ground truth nor prediction.
    """
    if confusion.ndim != 2 or confusion.shape[0] != confusion.shape[1]:
        raise ValueError(f"calc_semantic_segmentation_iou: confusion must be a square matrix, "
                         f"got shape={tuple(confusion.shape)}")
    diagonal = numpy.diag(confusion)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        return diagonal / (confusion.sum(axis=1) + confusion.sum(axis=0) - diagonal)


def eval_semantic_segmentation(pred_labels, gt_labels) -> dict:
    """IoU, pixel accuracy and class accuracy of predicted label maps over a data set.

    With N_ij the number of pixels of ground-truth class i predicted as j (pixels labelled -1 in
    the ground truth are ignored): IoU_i = N_ii / (sum_j N_ij + sum_j N_ji - N_ii), pixel
    accuracy = sum_i N_ii / sum_ij N_ij, class accuracy_i = N_ii / sum_j N_ij.

    Parameters
    ----------
    pred_labels : iterable of int arrays, N entries of shape (H, W), in [0, n_class - 1]
    gt_labels : iterable of int arrays, N entries of shape (H, W), in [-1, n_class - 1]

    Returns
    -------
    dict
        ``'iou'`` (n_class,), ``'miou'``, ``'pixel_accuracy'``, ``'class_accuracy'`` (n_class,),
        ``'mean_class_accuracy'``; means ignore nan (classes absent from the ground truth).
    """
    confusion = calc_semantic_segmentation_confusion(pred_labels, gt_labels)
    iou = calc_semantic_segmentation_iou(confusion)
    diagonal = numpy.diag(confusion)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        pixel_accuracy = diagonal.sum() / confusion.sum()
        class_accuracy = diagonal / confusion.sum(axis=1)
    return {"iou": iou, "miou": nanmean(iou), "pixel_accuracy": pixel_accuracy,
            "class_accuracy": class_accuracy, "mean_class_accuracy": nanmean(class_accuracy)}
