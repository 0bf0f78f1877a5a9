"""MaskHead: Mask R-CNN's mask head on Feature Pyramid Networks (RoIAlign, four 3x3 convolutions, a 2x
deconvolution, a per-class mask), its decoding and its loss (ChainerCV's
chainercv.links.model.fpn.MaskHead, mask_head_loss_pre and mask_head_loss_post)."""
import numpy

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import backend
from kusari.initializers import HeNormal
from kusari.vision import utils
from kusari.vision.links.connection import Conv2DActiv
from kusari.vision.links.model.fpn.bbox_head import assign_levels, flatten_levels, pool_levels, split_levels
from kusari.vision.links.model.fpn.mask_utils import mask_to_segm, segm_to_mask


class MaskHead(kusari.Chain):
    """Mask head of Mask R-CNN: RoIAlign (14x14, 2x2 samples per bin) on each RoI's level, ``conv1`` to
    ``conv4`` (3x3, 256 channels, ReLU), ``conv5`` (2x2 deconvolution, stride 2, ReLU) and ``seg`` (1x1,
    a mask logit map per class), so masks are ``segm_size`` = 28 pixels a side.

    Parameters
    ----------
    n_class : int
        Classes including the background.
    scales : tuple of floats
        The scale of each pyramid level.
    """

    _canonical_level = 2
    _canonical_scale = 224
    _roi_size = 14
    _roi_sample_ratio = 2
    segm_size = _roi_size * 2

    def __init__(self, n_class: int, scales):
        super().__init__()
        initialW = HeNormal(1, fan_option="fan_out")
        with self.init_scope():
            self.conv1 = Conv2DActiv(256, 3, pad=1, initialW=initialW)
            self.conv2 = Conv2DActiv(256, 3, pad=1, initialW=initialW)
            self.conv3 = Conv2DActiv(256, 3, pad=1, initialW=initialW)
            self.conv4 = Conv2DActiv(256, 3, pad=1, initialW=initialW)
            self.conv5 = L.Deconvolution2D(256, 2, pad=0, stride=2, initialW=initialW)
            self.seg = L.Convolution2D(n_class, 1, pad=0, initialW=initialW)
        self._n_class = n_class
        self._scales = scales

    def forward(self, hs, rois, roi_indices):
        """Mask logits of every RoI.

        Parameters
        ----------
        hs : sequence of Variables
            The pyramid.
        rois, roi_indices : lists of arrays
            ``distribute``'s first two outputs.

        Returns
        -------
        Variable, shape (R, n_class, segm_size, segm_size)
            RoIs in level order.
        """
        h = pool_levels(hs, rois, roi_indices, self._roi_size, self._scales, self._roi_sample_ratio)
        if h is None:
            size = self.segm_size
            return kusari.Variable(self.xp.empty((0, self._n_class, size, size), dtype=numpy.float32))
        h = self.conv4(self.conv3(self.conv2(self.conv1(h))))
        h = F.relu(self.conv5(h))
        return self.seg(h)

    def distribute(self, rois, roi_indices):
        """Assign each RoI to a pyramid level by its size, as ``BboxHead.distribute``.

        Returns
        -------
        (list of arrays, list of arrays, array)
            Level ``l``'s RoIs (R_l, 4) and indices (R_l,), and ``order`` (R,): RoI ``i`` of the input
            is row ``order[i]`` of the levels' RoIs concatenated.
        """
        xp = backend.get_array_module(rois)
        level = assign_levels(rois, len(self._scales), self._canonical_level, self._canonical_scale)
        masks = [level == l for l in range(len(self._scales))]
        order = xp.argsort(xp.concatenate([xp.flatnonzero(m) for m in masks]))
        return [rois[m] for m in masks], [roi_indices[m] for m in masks], order

    def decode(self, segms, bboxes, labels, sizes):
        """Each detection's mask in its image.

        Parameters
        ----------
        segms : list of arrays
            Image ``n``'s mask probabilities (R_n, n_class, M, M).
        bboxes : list of arrays
            Image ``n``'s boxes (R_n, 4).
        labels : list of arrays
            Image ``n``'s labels (R_n,) in [0, n_class - 2] (the mask of class ``label + 1`` is used).
        sizes : list of (H_n, W_n)

        Returns
        -------
        list of numpy.ndarray
            Image ``n``'s masks (R_n, H_n, W_n), bool (see :func:`segm_to_mask`).
        """
        masks = []
        for segm, bbox, label, size in zip(segms, bboxes, labels, sizes):
            segm, bbox, label = backend.to_cpu(segm), backend.to_cpu(bbox), backend.to_cpu(label)
            if len(segm):
                masks.append(segm_to_mask(segm[numpy.arange(len(label)), label + 1], bbox, size))
            else:
                masks.append(numpy.zeros((0,) + tuple(size), dtype=bool))
        return masks


def mask_head_loss_pre(rois, roi_indices, gt_masks, gt_bboxes, gt_head_labels, segm_size: int):
    """Select the RoIs of the mask head's loss and give them their target masks.

    The foreground RoIs (``gt_head_labels > 0``) are kept; each takes the mask of the ground-truth
    box of its image it overlaps most, cropped to the RoI and resized (:func:`mask_to_segm`).

    Parameters
    ----------
    rois, roi_indices : lists of arrays
        Level ``l``'s RoIs (R_l, 4) and images (R_l,).
    gt_masks : list of arrays
        Image ``n``'s instance masks (G_n, H, W), bool.
    gt_bboxes : list of arrays
        Image ``n``'s boxes (G_n, 4).
    gt_head_labels : list of arrays
        Level ``l``'s target classes from the box head (R_l,), 0 for background.
    segm_size : int

    Returns
    -------
    (list, list, list, list)
        Per level: ``mask_rois`` (R'_l, 4), ``mask_roi_indices`` (R'_l,), ``gt_segms``
        (R'_l, segm_size, segm_size) float32 and ``gt_mask_labels`` (R'_l,).
    """
    n_level = len(rois)
    rois, roi_indices, levels = flatten_levels(rois, roi_indices)
    xp = backend.get_array_module(rois)
    gt_head_labels = xp.concatenate(list(gt_head_labels))
    if gt_head_labels.shape != roi_indices.shape:
        raise ValueError(f"mask_head_loss_pre: gt_head_labels must hold one label per RoI ({len(rois)}), "
                         f"got {gt_head_labels.shape[0]}")
    index = xp.flatnonzero(gt_head_labels > 0)
    mask_rois, mask_roi_indices = rois[index], roi_indices[index]
    gt_segms = xp.empty((len(index), segm_size, segm_size), dtype=numpy.float32)
    for i in numpy.unique(backend.to_cpu(mask_roi_indices)):
        rows = xp.flatnonzero(mask_roi_indices == i)
        if len(gt_bboxes[i]) == 0:
            raise ValueError(f"mask_head_loss_pre: image {i} has foreground RoIs but no ground-truth box")
        gt_index = utils.bbox_iou(mask_rois[rows], gt_bboxes[i]).argmax(axis=1)
        gt_segms[rows] = xp.asarray(mask_to_segm(gt_masks[i], mask_rois[rows], segm_size, gt_index))
    return split_levels(levels[index], n_level, mask_rois, mask_roi_indices, gt_segms, gt_head_labels[index])


def mask_head_loss_post(segms, mask_roi_indices, gt_segms, gt_mask_labels, batchsize: int):
    """The mask head's loss: the sigmoid cross entropy of each RoI's mask logits for its class
    against its target, averaged over every pixel of every RoI.

    Parameters
    ----------
    segms : Variable, shape (R, n_class, M, M)
        ``MaskHead.forward``'s output on the RoIs of :func:`mask_head_loss_pre`.
    mask_roi_indices, gt_segms, gt_mask_labels : lists of arrays
        :func:`mask_head_loss_pre`'s outputs.
    batchsize : int
        Unused (ChainerCV's signature).

    Returns
    -------
    Variable
        The loss, a scalar.
    """
    xp = backend.get_array_module(segms.array)
    gt_segms = xp.concatenate(list(gt_segms))
    gt_mask_labels = xp.concatenate(list(gt_mask_labels)).astype(numpy.int32, copy=False)
    if segms.shape[0] != len(gt_mask_labels):
        raise ValueError(f"mask_head_loss_post: segms must hold one row per RoI ({len(gt_mask_labels)}), "
                         f"got segms.shape={segms.shape}")
    return F.sigmoid_cross_entropy(segms[xp.arange(len(gt_mask_labels)), gt_mask_labels],
                                   gt_segms.astype(numpy.int32))
