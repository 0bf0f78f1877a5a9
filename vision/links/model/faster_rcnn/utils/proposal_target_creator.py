"""ProposalTargetCreator: the training targets of a Faster R-CNN head (sampled RoIs, their classes and offsets)."""
import numpy

from kusari import backend
from kusari.vision.links.model.faster_rcnn.utils._checks import check_boxes, check_labels
from kusari.vision.links.model.faster_rcnn.utils.bbox2loc import bbox2loc
from kusari.vision.utils import bbox_iou


class ProposalTargetCreator:
    """Samples RoIs among proposals and ground-truth boxes, with the class and offsets each should predict.

    The ground-truth boxes are appended to the RoIs. Each RoI is assigned the ground-truth box of
    highest IoU; it is foreground when that IoU is at least ``pos_iou_thresh`` and background when
    it lies in ``[neg_iou_thresh_lo, neg_iou_thresh_hi)``. At most ``round(n_sample * pos_ratio)``
    foreground RoIs are drawn, then background RoIs up to ``n_sample`` in all, with NumPy's global
    random state (``numpy.random.choice``, foreground first, in ChainerCV's order of draws), so that
    ``numpy.random.seed`` reproduces ChainerCV's samples.

    Parameters
    ----------
    n_sample : int
        RoIs sampled per image (at most).
    pos_ratio : float
        Largest fraction of foreground RoIs.
    pos_iou_thresh : float
        IoU from which a RoI is foreground.
    neg_iou_thresh_hi, neg_iou_thresh_lo : float
        A RoI is background when its IoU lies in ``[neg_iou_thresh_lo, neg_iou_thresh_hi)``.
    """

    def __init__(self, n_sample=128, pos_ratio=0.25, pos_iou_thresh=0.5, neg_iou_thresh_hi=0.5,
                 neg_iou_thresh_lo=0.0):
        self.n_sample = n_sample
        self.pos_ratio = pos_ratio
        self.pos_iou_thresh = pos_iou_thresh
        self.neg_iou_thresh_hi = neg_iou_thresh_hi
        self.neg_iou_thresh_lo = neg_iou_thresh_lo

    def __call__(self, roi, bbox, label, loc_normalize_mean=(0., 0., 0., 0.),
                 loc_normalize_std=(0.1, 0.1, 0.2, 0.2)):
        """Sample RoIs of one image and their targets.

        Parameters
        ----------
        roi : numpy.ndarray or cupy.ndarray, shape (R, 4)
            Proposals ``(y_min, x_min, y_max, x_max)``.
        bbox : array of the same module, shape (R', 4)
            Ground-truth boxes, R' >= 1.
        label : integer array, shape (R',)
            Their classes in ``[0, L)``, L foreground classes (the background excluded).
        loc_normalize_mean, loc_normalize_std : tuple of four floats
            The offsets are returned as ``(bbox2loc(...) - mean) / std``.

        Returns
        -------
        sample_roi : array, shape (S, 4)
            The sampled RoIs, foreground first; ``S <= n_sample``.
        gt_roi_loc : array, shape (S, 4)
            Normalized offsets from each sampled RoI to its ground-truth box.
        gt_roi_label : array of int32, shape (S,)
            Class of each sampled RoI in ``[0, L]``, 0 being the background.
        """
        fname = "ProposalTargetCreator"
        check_boxes(fname, "roi", roi)
        check_boxes(fname, "bbox", bbox, allow_empty=False)
        check_labels(fname, label, bbox.shape[0])
        xp = backend.get_array_module(roi)
        roi, bbox, label = backend.to_cpu(roi), backend.to_cpu(bbox), backend.to_cpu(label)

        roi = numpy.concatenate((roi, bbox), axis=0)
        sample_roi, gt_roi_loc, gt_roi_label, _, _ = sample_targets(
            roi, bbox, label, self.n_sample, self.pos_ratio, self.pos_iou_thresh, self.neg_iou_thresh_hi,
            self.neg_iou_thresh_lo, loc_normalize_mean, loc_normalize_std)
        return xp.asarray(sample_roi), xp.asarray(gt_roi_loc), xp.asarray(gt_roi_label)


def sample_targets(roi, bbox, label, n_sample: int, pos_ratio: float, pos_iou_thresh: float,
                   neg_iou_thresh_hi: float, neg_iou_thresh_lo: float, loc_normalize_mean, loc_normalize_std):
    """The RoI sampling and targets of R-CNN heads (Faster R-CNN's and FCIS's ProposalTargetCreator), on
    NumPy arrays; ``roi`` already holds the ground-truth boxes.

    Each RoI is assigned the ground-truth box of highest IoU. ``round(n_sample * pos_ratio)`` RoIs
    at most are drawn among those of IoU >= ``pos_iou_thresh``, then background RoIs (IoU in
    ``[neg_iou_thresh_lo, neg_iou_thresh_hi)``) up to ``n_sample`` in all, by ``numpy.random.choice``
    (foreground first, ChainerCV's draws).

    Returns
    -------
    sample_roi : numpy.ndarray, shape (S, 4)
        The sampled RoIs, foreground first.
    gt_roi_loc : numpy.ndarray, shape (S, 4)
        ``(bbox2loc(sample_roi, their boxes) - loc_normalize_mean) / loc_normalize_std``.
    gt_roi_label : numpy.ndarray of int32, shape (S,)
        ``label + 1`` of each foreground sample's box, 0 for the background ones.
    gt_index : numpy.ndarray of int64, shape (S,)
        The ground-truth box (row of ``bbox``) each sample is assigned (background ones included).
    n_pos : int
        How many samples are foreground (the first ones).
    """
    iou = bbox_iou(roi, bbox)
    gt_assignment = iou.argmax(axis=1)
    max_iou = iou.max(axis=1)

    n_pos_wanted = numpy.round(n_sample * pos_ratio)
    pos_index = numpy.flatnonzero(max_iou >= pos_iou_thresh)
    n_pos = int(min(n_pos_wanted, pos_index.size))
    if pos_index.size > 0:
        pos_index = numpy.random.choice(pos_index, size=n_pos, replace=False)
    neg_index = numpy.flatnonzero((max_iou < neg_iou_thresh_hi) & (max_iou >= neg_iou_thresh_lo))
    n_neg = int(min(n_sample - n_pos, neg_index.size))
    if neg_index.size > 0:
        neg_index = numpy.random.choice(neg_index, size=n_neg, replace=False)

    keep = numpy.concatenate((pos_index, neg_index))
    gt_index = gt_assignment[keep]
    gt_roi_label = (label[gt_index] + 1).astype(numpy.int32)
    gt_roi_label[n_pos:] = 0
    sample_roi = roi[keep]
    gt_roi_loc = bbox2loc(sample_roi, bbox[gt_index])
    gt_roi_loc = ((gt_roi_loc - numpy.array(loc_normalize_mean, numpy.float32))
                  / numpy.array(loc_normalize_std, numpy.float32))
    return sample_roi, gt_roi_loc, gt_roi_label, gt_index, n_pos
