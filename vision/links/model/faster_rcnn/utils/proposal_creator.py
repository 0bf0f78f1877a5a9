"""ProposalCreator: region proposals from a Region Proposal Network's outputs (decode, clip, filter, NMS)."""
import numpy

import kusari
from kusari import backend
from kusari.vision.links.model.faster_rcnn.utils._checks import check_boxes, check_img_size
from kusari.vision.links.model.faster_rcnn.utils.loc2bbox import loc2bbox
from kusari.vision.utils import non_maximum_suppression
from kusari.vision.utils.bbox.non_maximum_suppression import descending_order


class ProposalCreator:
    """Turns anchors, predicted offsets and objectness scores into proposal boxes (RoIs).

    A call decodes every anchor with its offsets (:func:`loc2bbox`), clips the boxes to the image,
    drops those smaller than ``min_size * scale`` on a side, keeps the ``n_pre_nms`` best-scored,
    suppresses overlaps at ``nms_thresh`` and keeps the ``n_post_nms`` best survivors. The train
    or test limits apply according to ``kusari.config.train``; a limit <= 0 keeps everything.

    Parameters
    ----------
    nms_thresh : float
        IoU threshold of the non-maximum suppression.
    n_train_pre_nms, n_train_post_nms : int
        Boxes kept before and after NMS in training mode.
    n_test_pre_nms, n_test_post_nms : int
        Boxes kept before and after NMS in test mode.
    force_cpu_nms : bool
        Run the suppression on the CPU even for CuPy inputs.
    min_size : number
        Smallest height and width kept, in the pixels of the unscaled image.
    """

    def __init__(self, nms_thresh=0.7, n_train_pre_nms=12000, n_train_post_nms=2000, n_test_pre_nms=6000,
                 n_test_post_nms=300, force_cpu_nms=False, min_size=16):
        self.nms_thresh = nms_thresh
        self.n_train_pre_nms = n_train_pre_nms
        self.n_train_post_nms = n_train_post_nms
        self.n_test_pre_nms = n_test_pre_nms
        self.n_test_post_nms = n_test_post_nms
        self.force_cpu_nms = force_cpu_nms
        self.min_size = min_size

    def __call__(self, loc, score, anchor, img_size, scale=1.):
        """Propose RoIs for one image.

        Parameters
        ----------
        loc : numpy.ndarray or cupy.ndarray, shape (R, 4)
            Predicted ``(t_y, t_x, t_h, t_w)`` of each anchor (:func:`bbox2loc`'s encoding).
        score : array, shape (R,)
            Predicted objectness of each anchor (any monotonic score: only its order is used).
        anchor : array, shape (R, 4)
            The anchors, ``(y_min, x_min, y_max, x_max)``.
        img_size : tuple of two numbers
            ``(height, width)`` of the image the anchors live in (after preprocessing).
        scale : float
            How much preprocessing scaled the image; ``min_size`` is multiplied by it.

        Returns
        -------
        array of ``loc``'s module, shape (S, 4)
            The proposals, best score first; ``S <= n_post_nms`` when that limit is positive.
            Boxes are of the dtype :func:`loc2bbox` gives (float32 for float32 inputs).
        """
        fname = "ProposalCreator"
        check_boxes(fname, "anchor", anchor)
        n = anchor.shape[0]
        if tuple(loc.shape) != (n, 4) or tuple(score.shape) != (n,):
            raise ValueError(f"{fname}: loc must have shape (R, 4) and score (R,) with R = len(anchor) = {n}, got "
                             f"loc.shape={tuple(loc.shape)}, score.shape={tuple(score.shape)}")
        H, W = check_img_size(fname, img_size)
        if kusari.config.train:
            n_pre_nms, n_post_nms = self.n_train_pre_nms, self.n_train_post_nms
        else:
            n_pre_nms, n_post_nms = self.n_test_pre_nms, self.n_test_post_nms
        xp = backend.get_array_module(loc)

        roi = loc2bbox(anchor, loc)
        roi[:, 0::2] = xp.clip(roi[:, 0::2], 0, H)
        roi[:, 1::2] = xp.clip(roi[:, 1::2], 0, W)
        # min_size in the boxes' dtype, as ChainerCV's NumPy 1 compared a float32 array with a scalar
        min_size = roi.dtype.type(self.min_size * scale)
        big = xp.flatnonzero((roi[:, 2] - roi[:, 0] >= min_size) & (roi[:, 3] - roi[:, 1] >= min_size))
        order = big[descending_order(score.ravel()[big])]
        if n_pre_nms > 0:
            order = order[:n_pre_nms]
        roi = roi[order]

        limit = n_post_nms if n_post_nms > 0 else None
        if xp is not numpy and self.force_cpu_nms:
            keep = xp.asarray(non_maximum_suppression(backend.to_cpu(roi), self.nms_thresh, limit=limit))
        else:
            keep = non_maximum_suppression(roi, self.nms_thresh, limit=limit)
        return roi[keep]
