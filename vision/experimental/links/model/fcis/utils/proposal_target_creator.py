"""ProposalTargetCreator: the training targets of an FCIS head (sampled RoIs, their classes, offsets and masks)."""
import numpy

from kusari import backend
from kusari.vision.links.model.faster_rcnn.utils._checks import check_boxes, check_labels
from kusari.vision.links.model.faster_rcnn.utils.proposal_target_creator import sample_targets
from kusari.vision.transforms import resize


class ProposalTargetCreator:
    """Samples RoIs among proposals and ground-truth boxes, with the class, offsets and mask each should predict.

    The sampling is Faster R-CNN's (:class:`kusari.vision.links.model.faster_rcnn.ProposalTargetCreator`,
    the same NumPy draws as ChainerCV): the ground-truth boxes are appended to the RoIs; each RoI is
    assigned the box of highest IoU and is foreground when that IoU is at least ``pos_iou_thresh``,
    background when it lies in ``[neg_iou_thresh_lo, neg_iou_thresh_hi)``. The mask target of a
    foreground RoI is its box's mask cropped to the RoI (rounded to pixels), resized to ``mask_size``
    and binarized at ``binary_thresh``; background RoIs get masks of -1 (ignored by the loss).

    Parameters
    ----------
    n_sample : int or None
        RoIs sampled per image (at most); None: as many as there are RoIs (ground truth included).
    pos_ratio : float
        Largest fraction of foreground RoIs.
    pos_iou_thresh : float
        IoU from which a RoI is foreground.
    neg_iou_thresh_hi, neg_iou_thresh_lo : float
        A RoI is background when its IoU lies in ``[neg_iou_thresh_lo, neg_iou_thresh_hi)``.
    binary_thresh : float
        A resized mask value at least this is foreground (1), below it background (0).
    """

    def __init__(self, n_sample=128, pos_ratio=0.25, pos_iou_thresh=0.5, neg_iou_thresh_hi=0.5,
                 neg_iou_thresh_lo=0.1, binary_thresh=0.4):
        self.n_sample = n_sample
        self.pos_ratio = pos_ratio
        self.pos_iou_thresh = pos_iou_thresh
        self.neg_iou_thresh_hi = neg_iou_thresh_hi
        self.neg_iou_thresh_lo = neg_iou_thresh_lo
        self.binary_thresh = binary_thresh

    def __call__(self, roi, mask, label, bbox, loc_normalize_mean=(0., 0., 0., 0.),
                 loc_normalize_std=(0.2, 0.2, 0.5, 0.5), mask_size=(21, 21)):
        """Sample RoIs of one image and their targets.

        Parameters
        ----------
        roi : numpy.ndarray or cupy.ndarray, shape (R, 4)
            Proposals ``(y_min, x_min, y_max, x_max)``.
        mask : array of the same module, shape (R', H, W)
            Ground-truth masks (bool, or numbers: non-zero is inside), one per box.
        label : integer array, shape (R',)
            Their classes in ``[0, L)``, L foreground classes (the background excluded).
        bbox : array, shape (R', 4)
            Their boxes, R' >= 1.
        loc_normalize_mean, loc_normalize_std : tuple of four floats
            The offsets are returned as ``(bbox2loc(...) - mean) / std``.
        mask_size : int or tuple of two ints
            ``(RH, RW)`` of the mask targets (an int ``s`` means ``(s, s)``).

        Returns
        -------
        sample_roi : array, shape (S, 4)
            The sampled RoIs, foreground first; ``S <= n_sample``.
        gt_roi_mask : array of int32, shape (S, RH, RW)
            1 (object) or 0 for the foreground RoIs, -1 for the background ones.
        gt_roi_label : array of int32, shape (S,)
            Class of each sampled RoI in ``[0, L]``, 0 being the background.
        gt_roi_loc : array, shape (S, 4)
            Normalized offsets from each sampled RoI to its ground-truth box.
        """
        fname = "ProposalTargetCreator"
        check_boxes(fname, "roi", roi)
        check_boxes(fname, "bbox", bbox, allow_empty=False)
        check_labels(fname, label, bbox.shape[0])
        if mask.ndim != 3 or mask.shape[0] != bbox.shape[0]:
            raise ValueError(f"{fname}: mask must have shape (R', H, W) with R' = len(bbox) = {bbox.shape[0]}, "
                             f"got mask.shape={tuple(mask.shape)}")
        mask_size = _pair(fname, mask_size)
        xp = backend.get_array_module(roi)
        roi, mask, label, bbox = (backend.to_cpu(a) for a in (roi, mask, label, bbox))

        roi = numpy.concatenate((roi, bbox), axis=0)
        n_sample = len(roi) if self.n_sample is None else self.n_sample
        sample_roi, gt_roi_loc, gt_roi_label, gt_index, n_pos = sample_targets(
            roi, bbox, label, n_sample, self.pos_ratio, self.pos_iou_thresh, self.neg_iou_thresh_hi,
            self.neg_iou_thresh_lo, loc_normalize_mean, loc_normalize_std)
        gt_roi_mask = numpy.full((len(sample_roi),) + mask_size, -1, numpy.int32)
        gt_roi_mask[:n_pos] = self._crop_masks(mask, gt_index[:n_pos], sample_roi[:n_pos], mask_size)
        return tuple(xp.asarray(a) for a in (sample_roi, gt_roi_mask, gt_roi_label, gt_roi_loc))

    def _crop_masks(self, mask, index, box, mask_size):
        """``mask[index[i]]`` inside ``box[i]`` (rounded, within the image), resized to ``mask_size`` and
        binarized; -1 where the rounded box holds no pixel."""
        H, W = mask.shape[1:]
        box = numpy.round(box).astype(numpy.int64)
        box[:, 0::2] = numpy.clip(box[:, 0::2], 0, H)
        box[:, 1::2] = numpy.clip(box[:, 1::2], 0, W)
        out = numpy.full((len(box),) + mask_size, -1, numpy.int32)
        # one resize per foreground RoI (each to its own size): OpenCV's or Pillow's, as kusari.vision's resize
        for i, (y_min, x_min, y_max, x_max) in enumerate(box):
            if y_max > y_min and x_max > x_min:
                crop = mask[index[i], y_min:y_max, x_min:x_max].astype(numpy.float32)[None]
                out[i] = resize(crop, mask_size)[0] >= self.binary_thresh
        return out


def _pair(fname: str, size) -> tuple:
    """``size`` as an ``(RH, RW)`` pair of positive ints (an int ``s``: ``(s, s)``)."""
    pair = tuple(size) if isinstance(size, (tuple, list)) else (size, size)
    if len(pair) != 2 or not all(isinstance(v, (int, numpy.integer)) and not isinstance(v, bool) and v > 0
                                 for v in pair):
        raise ValueError(f"{fname}: mask_size must be a positive int or a pair of them, got {size!r}")
    return int(pair[0]), int(pair[1])
