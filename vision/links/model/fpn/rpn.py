"""RPN: the region proposal network of Feature Pyramid Networks, its anchors and proposals, and its loss
(ChainerCV's chainercv.links.model.fpn.RPN and rpn_loss)."""
import numpy

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import backend, initializers
from kusari.vision import utils
from kusari.vision._checks import check_bbox
from kusari.vision.links.model.fpn.misc import argsort, as_variable, choice, clipped_exp, smooth_l1


def _array(x):
    return x.array if isinstance(x, kusari.Variable) else x


def decode_yxhw(xp, bbox, loc, in_size, std=(1.0, 1.0)):
    """Boxes ``bbox`` (..., 4) moved by offsets ``loc`` (..., 4) = (dy, dx, log dh, log dw) times ``std``
    = (s_yx, s_hw), relative to each box's size, then clipped to ``[0, in_size]``.

    The result has ``bbox``'s dtype and is computed in ChainerCV's order of operations, so float32
    boxes round as ChainerCV's do. A box that ends up entirely outside ``[0, in_size]`` is clipped
    inside out (``y_max < y_min`` or ``x_max < x_min``), as in ChainerCV.
    """
    hw = bbox[..., 2:] - bbox[..., :2]
    yx = bbox[..., :2] + hw / 2
    yx = yx + loc[..., :2] * hw * std[0]
    hw = hw * clipped_exp(xp, loc[..., 2:] * std[1])
    tl = yx - hw / 2
    br = hw + tl
    tl = xp.maximum(tl, 0)
    br = xp.minimum(br, xp.asarray(in_size, dtype=bbox.dtype))
    return xp.concatenate((tl, br), axis=-1)


class RPN(kusari.Chain):
    """Region proposal network of FPN: shared 3x3 convolution, then per anchor an objectness logit and
    a box offset, on every pyramid level.

    Each position of level ``l`` has ``len(_anchor_ratios)`` anchors of side ``_anchor_size * 2**l``
    (aspect ratios 0.5, 1, 2). ``decode`` turns the outputs into proposals: per level, the
    ``_test_nms_limit_pre`` best-scored (``_train_nms_limit_pre`` in training mode), non-empty,
    suppressed at IoU ``_nms_thresh`` and cut to ``..._nms_limit_post``; then the best
    ``..._nms_limit_post`` over all levels. These are class attributes, as in ChainerCV; an instance
    may override them.

    Parameters
    ----------
    scales : tuple of floats
        The scale of each pyramid level.

    Child links: ``conv`` (3x3, 256 channels), ``loc`` (1x1, 4 per anchor) and ``conf`` (1x1, 1 per
    anchor), their input channels deferred to the first call.
    """

    _anchor_size = 32
    _anchor_ratios = (0.5, 1, 2)
    _nms_thresh = 0.7
    _train_nms_limit_pre = 2000
    _train_nms_limit_post = 2000
    _test_nms_limit_pre = 1000
    _test_nms_limit_post = 1000

    def __init__(self, scales):
        super().__init__()
        init = {"initialW": initializers.Normal(0.01)}
        with self.init_scope():
            self.conv = L.Convolution2D(256, 3, pad=1, **init)
            self.loc = L.Convolution2D(len(self._anchor_ratios) * 4, 1, **init)
            self.conf = L.Convolution2D(len(self._anchor_ratios), 1, **init)
        self._scales = scales

    def forward(self, hs):
        """Box offsets and objectness logits of every anchor.

        Parameters
        ----------
        hs : sequence of Variables
            The pyramid, level ``l`` of shape (N, C, H_l, W_l).

        Returns
        -------
        (list of Variables, list of Variables)
            ``locs``: level ``l`` of shape (N, K_l, 4), K_l = H_l * W_l * A (A anchors per position,
            position-major); ``confs``: (N, K_l).
        """
        locs, confs = [], []
        for h in hs:
            h = F.relu(self.conv(h))
            loc = F.transpose(self.loc(h), (0, 2, 3, 1))
            locs.append(F.reshape(loc, (loc.shape[0], -1, 4)))
            conf = F.transpose(self.conf(h), (0, 2, 3, 1))
            confs.append(F.reshape(conf, (conf.shape[0], -1)))
        return locs, confs

    def anchors(self, sizes):
        """The anchor boxes of each level.

        Parameters
        ----------
        sizes : iterable of (H_l, W_l)
            The size of each level's feature map.

        Returns
        -------
        list of arrays
            Level ``l``: (H_l * W_l * A, 4) float32 ``(y_min, x_min, y_max, x_max)`` in input
            coordinates, ordered as ``forward``'s outputs.
        """
        anchors = []
        for l, (H, W) in enumerate(sizes):
            scale = self._scales[l]
            v, u, ratio = numpy.meshgrid(numpy.arange(W), numpy.arange(H), self._anchor_ratios)
            w = numpy.round(1 / numpy.sqrt(ratio) / scale)
            h = numpy.round(w * ratio)
            anchor = numpy.stack((u, v, h, w)).reshape((4, -1)).transpose()
            anchor[:, :2] = (anchor[:, :2] + 0.5) / scale
            anchor[:, 2:] *= (self._anchor_size << l) * scale
            anchor[:, :2] -= anchor[:, 2:] / 2
            anchor[:, 2:] += anchor[:, :2]
            anchors.append(self.xp.asarray(anchor, dtype=numpy.float32))
        return anchors

    def decode(self, locs, confs, anchors, in_shape):
        """Proposals (RoIs) from the outputs of ``forward``.

        Parameters
        ----------
        locs, confs : lists of Variables or arrays
            ``forward``'s outputs: level ``l`` of shape (N, K_l, 4) and (N, K_l).
        anchors : list of arrays
            ``anchors``' output, level ``l`` of shape (K_l, 4).
        in_shape : tuple of ints
            The shape (N, C, H, W) of the extractor's input; proposals are clipped to (H, W).

        Returns
        -------
        (array, array)
            ``rois`` (R, 4) float32, each image's proposals in descending objectness;
            ``roi_indices`` (R,) int32, the image of each.
        """
        if kusari.config.train:
            limit_pre, limit_post = self._train_nms_limit_pre, self._train_nms_limit_post
        else:
            limit_pre, limit_post = self._test_nms_limit_pre, self._test_nms_limit_post
        xp = self.xp
        locs = [_array(loc) for loc in locs]
        confs = [_array(conf) for conf in confs]
        rois, roi_indices = [], []
        for i in range(in_shape[0]):
            roi, conf = [], []
            for l in range(len(self._scales)):
                roi_l = decode_yxhw(xp, anchors[l], locs[l][i], in_shape[2:])
                order = argsort(-confs[l][i])[:limit_pre]
                roi_l, conf_l = roi_l[order], confs[l][i][order]
                nonempty = (roi_l[:, 2:] - roi_l[:, :2] > 0).all(axis=1)
                roi_l, conf_l = roi_l[nonempty], conf_l[nonempty]
                keep = utils.non_maximum_suppression(roi_l, self._nms_thresh, limit=limit_post)
                roi.append(roi_l[keep])
                conf.append(conf_l[keep])
            roi = xp.concatenate(roi).astype(numpy.float32, copy=False)
            conf = xp.concatenate(conf).astype(numpy.float32, copy=False)
            roi = roi[argsort(-conf)[:limit_post]]
            rois.append(roi)
            roi_indices.append(xp.full(len(roi), i, dtype=numpy.int32))
        if not rois:
            return xp.zeros((0, 4), numpy.float32), xp.zeros((0,), numpy.int32)
        return xp.concatenate(rois), xp.concatenate(roi_indices)


def encode_yxhw(xp, bbox, roi, std=(1.0, 1.0)):
    """The offsets (dy, dx, log dh, log dw) / ``std`` that move each box of ``roi`` (R, 4) onto ``bbox``
    (R, 4), relative to the RoI's size: the inverse of :func:`decode_yxhw` without the clip."""
    roi_hw = roi[:, 2:] - roi[:, :2]
    roi_yx = (roi[:, 2:] + roi[:, :2]) / 2
    hw = bbox[:, 2:] - bbox[:, :2]
    yx = bbox[:, :2] + hw / 2
    return xp.concatenate(((yx - roi_yx) / roi_hw / std[0], xp.log(hw / roi_hw) / std[1]), axis=1)


def rpn_loss(locs, confs, anchors, sizes, bboxes):
    """The RPN's training loss: smooth L1 (beta 1/9) of the offsets of foreground anchors and the
    sigmoid cross entropy of objectness, each over the sampled anchors of each image, averaged over
    the images.

    Anchors lying inside an image are labelled: foreground if IoU >= 0.7 with a ground-truth box or
    the best anchor of one (ties: all of them), background if IoU < 0.3 with every box (every
    anchor, for an image without boxes). 256 anchors per image are sampled, at most a quarter of
    them foreground, drawn with NumPy's global generator as ChainerCV draws them (the foreground
    without replacement, the background with).

    Parameters
    ----------
    locs, confs : iterables of Variables
        ``RPN.forward``'s outputs, level ``l`` of shape (N, K_l, 4) and (N, K_l).
    anchors : list of arrays
        ``RPN.anchors``' output.
    sizes : list of (H_n, W_n)
        The size of each image (without the batch's padding).
    bboxes : list of arrays
        Image ``n``'s ground-truth boxes (R_n, 4), float32; R_n may be 0.

    Returns
    -------
    (Variable, Variable)
        ``loc_loss`` and ``conf_loss``, scalars.

    Notes
    -----
    ChainerCV labels no anchor as background when an image has at most ``256 - n_fg`` background
    candidates (its loss is then NaN for an image without boxes); here those that are not foreground
    are all background. An image with no labelled anchor adds nothing (ChainerCV: NaN).
    """
    fg_thresh, bg_thresh = 0.7, 0.3
    batchsize_per_image, fg_ratio = 256, 0.25
    fname = "rpn_loss"
    if len(sizes) != len(bboxes):
        raise ValueError(f"{fname}: sizes and bboxes must have one entry per image, got {len(sizes)} and "
                         f"{len(bboxes)}")
    locs = F.concat(list(locs))
    confs = F.concat(list(confs))
    xp = backend.get_array_module(locs.array)
    anchors = xp.concatenate(anchors)
    if locs.shape[:2] != (len(sizes), len(anchors)) or confs.shape != locs.shape[:2]:
        raise ValueError(f"{fname}: locs and confs must hold one row per anchor of each image, got "
                         f"locs.shape={locs.shape}, confs.shape={confs.shape} for {len(anchors)} anchors "
                         f"and {len(sizes)} images")
    for i, bbox in enumerate(bboxes):
        check_bbox(fname, backend.to_cpu(bbox), f"bboxes[{i}]")

    n_fg = int(batchsize_per_image * fg_ratio)
    loc_loss = conf_loss = xp.zeros((), locs.dtype)
    for i, (size, bbox) in enumerate(zip(sizes, bboxes)):
        inside = ((anchors[:, :2] >= 0) & (anchors[:, 2:] < xp.asarray(size))).all(axis=1)
        label = xp.full(len(anchors), -1, dtype=numpy.int32)
        if len(bbox):
            iou = utils.bbox_iou(anchors, bbox)
            best_iou = iou.max(axis=1)
            gt_loc = encode_yxhw(xp, bbox[iou.argmax(axis=1)].astype(locs.dtype, copy=False), anchors)
            inside_index = xp.flatnonzero(inside)
            if len(inside_index):
                iou_inside = iou[inside_index]
                label[inside_index[(iou_inside == iou_inside.max(axis=0)).any(axis=1)]] = 1
            label[inside & (best_iou >= fg_thresh)] = 1
            bg_index = xp.flatnonzero(inside & (best_iou < bg_thresh))
        else:
            gt_loc = xp.zeros_like(anchors)
            bg_index = xp.flatnonzero(inside)

        fg_index = xp.flatnonzero(label == 1)
        if len(fg_index) > n_fg:
            label[choice(fg_index, size=len(fg_index) - n_fg)] = -1
        n_bg = batchsize_per_image - int((label == 1).sum())
        if len(bg_index) > n_bg:
            label[bg_index[xp.asarray(numpy.random.randint(len(bg_index), size=n_bg))]] = 0
        else:
            label[bg_index[label[bg_index] == -1]] = 0

        sampled = xp.flatnonzero(label >= 0)
        if len(sampled) == 0:
            continue
        fg = xp.flatnonzero(label == 1)
        loc_loss = loc_loss + F.sum(smooth_l1(locs[i][fg], gt_loc[fg], 1 / 9)) / len(sampled)
        conf_loss = conf_loss + F.sum(
            F.sigmoid_cross_entropy(confs[i][sampled], label[sampled], reduce="no")) / len(sampled)
    return as_variable(loc_loss / len(sizes)), as_variable(conf_loss / len(sizes))

