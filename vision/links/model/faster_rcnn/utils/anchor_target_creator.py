"""AnchorTargetCreator: the training targets of a Region Proposal Network (anchor labels and offsets)."""
import numpy

from kusari import backend
from kusari.vision.links.model.faster_rcnn.utils._checks import check_boxes, check_img_size
from kusari.vision.links.model.faster_rcnn.utils.bbox2loc import bbox2loc
from kusari.vision.utils import bbox_iou


class AnchorTargetCreator:
    """Assigns ground-truth boxes to anchors and samples the anchors a Region Proposal Network trains on.

    Only anchors that lie inside the image are labelled. An anchor is positive (1) when its IoU with
    some ground-truth box is at least ``pos_iou_thresh``, or when it is, for some ground-truth box,
    one of the anchors of highest IoU with that box (ties included); negative (0) when its best IoU
    is below ``neg_iou_thresh`` and it is not positive; ignored (-1) otherwise. Then at most
    ``int(pos_ratio * n_sample)`` positives are kept, and negatives fill the sample up to
    ``n_sample``; the others become -1. The subsets are drawn with NumPy's global random state
    (``numpy.random.choice``), positives first, exactly as ChainerCV draws them, so that
    ``numpy.random.seed`` reproduces ChainerCV's samples.

    As in ChainerCV (and py-faster-rcnn), a ground-truth box that no inside anchor overlaps has a
    highest IoU of 0, and every inside anchor of IoU 0 with it becomes positive.

    Parameters
    ----------
    n_sample : int
        Anchors labelled 0 or 1 per image (at most).
    pos_iou_thresh : float
        IoU from which an anchor is positive.
    neg_iou_thresh : float
        IoU below which an anchor is negative.
    pos_ratio : float
        Largest fraction of positives in the sample.
    """

    def __init__(self, n_sample=256, pos_iou_thresh=0.7, neg_iou_thresh=0.3, pos_ratio=0.5):
        self.n_sample = n_sample
        self.pos_iou_thresh = pos_iou_thresh
        self.neg_iou_thresh = neg_iou_thresh
        self.pos_ratio = pos_ratio

    def __call__(self, bbox, anchor, img_size):
        """Targets for every anchor of one image.

        Parameters
        ----------
        bbox : numpy.ndarray or cupy.ndarray, shape (R, 4)
            Ground-truth boxes ``(y_min, x_min, y_max, x_max)``, R >= 1.
        anchor : array of the same module, shape (S, 4)
            The anchors.
        img_size : tuple of two numbers
            ``(height, width)`` of the image.

        Returns
        -------
        loc : array, shape (S, 4)
            :func:`bbox2loc` from each inside anchor to its best-overlapping ground-truth box, 0 for
            the anchors outside the image.
        label : array of int32, shape (S,)
            1 (positive), 0 (negative) or -1 (ignored).

        Raises
        ------
        ValueError
            No ground-truth box, no anchor inside the image, bad shapes or inverted boxes.
        """
        fname = "AnchorTargetCreator"
        check_boxes(fname, "bbox", bbox, allow_empty=False)
        check_boxes(fname, "anchor", anchor)
        H, W = check_img_size(fname, img_size)
        xp = backend.get_array_module(bbox)
        bbox = backend.to_cpu(bbox)
        anchor = backend.to_cpu(anchor)

        inside = numpy.flatnonzero((anchor[:, 0] >= 0) & (anchor[:, 1] >= 0)
                                   & (anchor[:, 2] <= H) & (anchor[:, 3] <= W))
        if inside.size == 0:
            raise ValueError(f"{fname}: no anchor lies inside the image (img_size={img_size!r}, "
                             f"{anchor.shape[0]} anchors)")
        inside_anchor = anchor[inside]
        argmax_iou, label = self._create_label(inside_anchor, bbox)
        loc = numpy.zeros((anchor.shape[0], 4), numpy.result_type(anchor, bbox))
        loc[inside] = bbox2loc(inside_anchor, bbox[argmax_iou])
        full_label = numpy.full(anchor.shape[0], -1, numpy.int32)
        full_label[inside] = label
        return xp.asarray(loc), xp.asarray(full_label)

    def _create_label(self, anchor, bbox):
        """(index of each anchor's best ground-truth box, the sampled labels) for the inside anchors."""
        iou = bbox_iou(anchor, bbox)
        argmax_iou = iou.argmax(axis=1)
        max_iou = iou[numpy.arange(len(anchor)), argmax_iou]
        gt_max_iou = iou.max(axis=0)
        gt_argmax_iou = numpy.nonzero(iou == gt_max_iou)[0]

        label = numpy.full(len(anchor), -1, numpy.int32)
        label[max_iou < self.neg_iou_thresh] = 0
        label[gt_argmax_iou] = 1
        label[max_iou >= self.pos_iou_thresh] = 1

        n_pos = int(self.pos_ratio * self.n_sample)
        _disable_surplus(label, 1, n_pos)
        _disable_surplus(label, 0, self.n_sample - int(numpy.sum(label == 1)))
        return argmax_iou, label


def _disable_surplus(label, value: int, n_keep: int) -> None:
    """Sets to -1 a random subset of the entries equal to ``value`` so that ``n_keep`` remain (when there
    are more), drawn as ChainerCV draws it (one ``numpy.random.choice`` without replacement)."""
    index = numpy.flatnonzero(label == value)
    if len(index) > n_keep:
        label[numpy.random.choice(index, size=len(index) - n_keep, replace=False)] = -1
