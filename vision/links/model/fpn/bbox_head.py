"""BboxHead: the box head of Feature Pyramid Networks (RoIAlign, two fully connected layers, class
scores and per-class box offsets), its decoding and its loss (ChainerCV's
chainercv.links.model.fpn.BboxHead, bbox_head_loss_pre and bbox_head_loss_post)."""
import numpy

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import backend, initializers
from kusari.vision import utils
from kusari.vision._checks import check_bbox
from kusari.vision.links.model.fpn.misc import argsort, as_variable, choice, smooth_l1
from kusari.vision.links.model.fpn.rpn import decode_yxhw, encode_yxhw


class Caffe2FCUniform(initializers.Initializer):
    """Caffe2's initializer of fully connected layers: uniform in ±1/sqrt(fan_in), where fan_in is the
    array's last dimension."""

    def __call__(self, array):
        initializers.Uniform(1 / numpy.sqrt(array.shape[-1]))(array)


def assign_levels(rois, n_level: int, canonical_level: int, canonical_scale: float):
    """The pyramid level of each RoI (R, 4): ``floor(log2(sqrt(area) / canonical_scale + 1e-6)) +
    canonical_level``, clipped to [0, n_level - 2] (the coarsest level takes none).

    An inside-out RoI (a negative area) has no size; it goes to level 0, where ChainerCV's cast of
    NaN to int32 sends it (so does an infinite one).
    """
    xp = backend.get_array_module(rois)
    area = xp.prod(rois[:, 2:] - rois[:, :2], axis=1)
    with numpy.errstate(invalid="ignore", divide="ignore"):
        level = xp.floor(xp.log2(xp.sqrt(area) / canonical_scale + 1e-6))
    level = xp.where(xp.isfinite(level), xp.clip(level, -n_level, n_level), -n_level).astype(numpy.int32)
    return xp.clip(level + canonical_level, 0, n_level - 2)


def pool_levels(hs, rois, roi_indices, roi_size, scales, sampling_ratio):
    """RoIAlign of each level's RoIs on its map, concatenated in level order (None without RoIs)."""
    pooled = [F.roi_average_align_2d(h, r, i, roi_size, scales[l], sampling_ratio)
              for l, (h, r, i) in enumerate(zip(hs, rois, roi_indices)) if len(r)]
    return F.concat(pooled, axis=0) if pooled else None


class BboxHead(kusari.Chain):
    """Box head of FPN: RoIAlign (7x7, 2x2 samples per bin) on each RoI's level, ``fc1`` and ``fc2``
    (1024 units, ReLU), then ``loc`` (4 offsets per class) and ``conf`` (a logit per class).

    Parameters
    ----------
    n_class : int
        Classes including the background (class 0).
    scales : tuple of floats
        The scale of each pyramid level.

    Child links: ``fc1``, ``fc2``, ``loc``, ``conf`` (their input sizes deferred to the first call).
    ``std`` = (0.1, 0.2) scales the offsets (centre, size) in ``decode`` and the loss.
    """

    _canonical_level = 2
    _canonical_scale = 224
    _roi_size = 7
    _roi_sample_ratio = 2
    std = (0.1, 0.2)

    def __init__(self, n_class: int, scales):
        super().__init__()
        fc_init = {"initialW": Caffe2FCUniform(), "initial_bias": Caffe2FCUniform()}
        with self.init_scope():
            self.fc1 = L.Linear(1024, **fc_init)
            self.fc2 = L.Linear(1024, **fc_init)
            self.loc = L.Linear(n_class * 4, initialW=initializers.Normal(0.001))
            self.conf = L.Linear(n_class, initialW=initializers.Normal(0.01))
        self._n_class = n_class
        self._scales = scales

    def forward(self, hs, rois, roi_indices):
        """Box offsets and class logits of every RoI.

        Parameters
        ----------
        hs : sequence of Variables
            The pyramid.
        rois, roi_indices : lists of arrays
            ``distribute``'s output: level ``l``'s RoIs (R_l, 4) and their images (R_l,).

        Returns
        -------
        (Variable, Variable)
            ``locs`` (R, n_class, 4) and ``confs`` (R, n_class), R = sum of R_l, RoIs in level order.
        """
        h = pool_levels(hs, rois, roi_indices, self._roi_size, self._scales, self._roi_sample_ratio)
        if h is None:
            return (kusari.Variable(self.xp.empty((0, self._n_class, 4), dtype=numpy.float32)),
                    kusari.Variable(self.xp.empty((0, self._n_class), dtype=numpy.float32)))
        h = F.reshape(h, (h.shape[0], -1))
        h = F.relu(self.fc1(h))
        h = F.relu(self.fc2(h))
        locs = self.loc(h)
        return F.reshape(locs, (locs.shape[0], -1, 4)), self.conf(h)

    def distribute(self, rois, roi_indices):
        """Assign each RoI to a pyramid level by its size (224 pixels: level 2, halving per level down).

        Parameters
        ----------
        rois : array (R, 4)
        roi_indices : array (R,)

        Returns
        -------
        (list of arrays, list of arrays)
            Level ``l``'s RoIs (R_l, 4) and their indices (R_l,), in their input order; the last
            level has none.
        """
        level = assign_levels(rois, len(self._scales), self._canonical_level, self._canonical_scale)
        masks = [level == l for l in range(len(self._scales))]
        return [rois[m] for m in masks], [roi_indices[m] for m in masks]

    def decode(self, rois, roi_indices, locs, confs, scales, sizes, nms_thresh: float,
               score_thresh: float):
        """Detections from the head's outputs.

        Each RoI gives one box per foreground class (its offsets applied, clipped to the image) scored
        by the class's softmax probability; per image and class, boxes scoring at least
        ``score_thresh`` are suppressed at IoU ``nms_thresh`` (a box clipped inside out, lying outside
        the image, is kept and suppresses nothing, as in ChainerCV).

        Parameters
        ----------
        rois, roi_indices : iterables of arrays
            Level ``l``'s RoIs (R_l, 4), in the prepared images' coordinates, and their images.
        locs, confs : Variables or arrays
            ``forward``'s outputs (R, n_class, 4) and (R, n_class).
        scales : list of floats
            Each image's scale from ``FasterRCNN.prepare``.
        sizes : list of (H_n, W_n)
            Each image's original size.
        nms_thresh, score_thresh : float

        Returns
        -------
        (list of arrays, list of arrays, list of arrays)
            Per image: boxes (R'_n, 4) float32 in the original image, labels (R'_n,) int32 in
            [0, n_class - 2], scores (R'_n,) float32; by class, then by descending score.
        """
        xp = self.xp
        rois = xp.concatenate(list(rois))
        roi_indices = xp.concatenate(list(roi_indices))
        locs = locs.array if isinstance(locs, kusari.Variable) else locs
        confs = confs.array if isinstance(confs, kusari.Variable) else confs
        bboxes, labels, scores = [], [], []
        for i, (scale, size) in enumerate(zip(scales, sizes)):
            mask = roi_indices == i
            loc, conf = locs[mask], confs[mask]
            roi = xp.broadcast_to(rois[mask][:, None], loc.shape) / scale
            bbox = decode_yxhw(xp, roi, loc, size, self.std)
            conf = xp.exp(conf)
            score = conf / xp.sum(conf, axis=1, keepdims=True)
            bbox, label, score = _suppress(bbox, score, nms_thresh, score_thresh)
            bboxes.append(bbox)
            labels.append(label)
            scores.append(score)
        return bboxes, labels, scores


def suppress_boxes(bbox, thresh: float):
    """:func:`kusari.vision.utils.non_maximum_suppression` of ``bbox`` (R, 4) in index order, where a box
    clipped inside out (``y_max < y_min`` or ``x_max < x_min``) is kept and suppresses nothing: it
    overlaps no box, as ChainerCV's suppression finds (for ``thresh > 0``)."""
    xp = backend.get_array_module(bbox)
    inverted = (bbox[:, 2:] < bbox[:, :2]).any(axis=1)
    if not bool(inverted.any()):
        return utils.non_maximum_suppression(bbox, thresh)
    normal = xp.flatnonzero(~inverted)
    keep = xp.zeros(len(bbox), dtype=bool)
    keep[normal[utils.non_maximum_suppression(bbox[normal], thresh)]] = True
    return xp.flatnonzero(keep | inverted).astype(numpy.int32)


def _suppress(raw_bbox, raw_score, nms_thresh, score_thresh):
    """Per foreground class: boxes scoring ``score_thresh`` or more, by descending score, suppressed."""
    xp = backend.get_array_module(raw_bbox)
    bbox, label, score = [], [], []
    for l in range(raw_score.shape[1] - 1):
        bbox_l, score_l = raw_bbox[:, l + 1], raw_score[:, l + 1]
        keep = score_l >= score_thresh
        bbox_l, score_l = bbox_l[keep], score_l[keep]
        order = argsort(-score_l)
        bbox_l, score_l = bbox_l[order], score_l[order]
        keep = suppress_boxes(bbox_l, nms_thresh)
        bbox.append(bbox_l[keep])
        score.append(score_l[keep])
        label.append(xp.full(len(keep), l, dtype=numpy.int32))
    if not bbox:
        return (xp.zeros((0, 4), numpy.float32), xp.zeros((0,), numpy.int32), xp.zeros((0,), numpy.float32))
    return (xp.concatenate(bbox).astype(numpy.float32, copy=False), xp.concatenate(label),
            xp.concatenate(score).astype(numpy.float32, copy=False))


def flatten_levels(rois, roi_indices):
    """The per-level lists as flat arrays, with each RoI's level."""
    xp = backend.get_array_module(*rois)
    levels = xp.concatenate([xp.full(len(r), l, dtype=numpy.int32) for l, r in enumerate(rois)])
    return (xp.concatenate(list(rois)).astype(numpy.float32, copy=False),
            xp.concatenate(list(roi_indices)).astype(numpy.int32, copy=False), levels)


def split_levels(levels, n_level, *arrays):
    """Each array split into per-level lists (level ``l``: the rows whose level is ``l``)."""
    masks = [levels == l for l in range(n_level)]
    return tuple([a[m] for m in masks] for a in arrays)


def bbox_head_loss_pre(rois, roi_indices, std, bboxes, labels):
    """Sample the RoIs of the box head's loss and give them their targets.

    Each RoI is matched to the ground-truth box of its image it overlaps most: its target class is
    that box's label + 1 if the IoU is at least 0.5, else 0 (background); its target offsets are
    that box's, relative to the RoI and divided by ``std``. Per image, at most 128 foreground RoIs
    and 512 RoIs in all are kept, drawn with NumPy's global generator as ChainerCV draws them.

    Parameters
    ----------
    rois, roi_indices : lists of arrays
        Level ``l``'s RoIs (R_l, 4) and their images (R_l,).
    std : tuple of two floats
    bboxes : list of arrays
        Image ``n``'s ground-truth boxes (G_n, 4); G_n may be 0.
    labels : list of arrays
        Image ``n``'s labels (G_n,), in [0, n_fg_class - 1].

    Returns
    -------
    (list, list, list, list)
        Per level: the kept ``rois`` (R'_l, 4), ``roi_indices`` (R'_l,), ``gt_locs`` (R'_l, 4) and
        ``gt_labels`` (R'_l,) int32. Background RoIs' ``gt_locs`` are not used (ChainerCV leaves them
        uninitialized for images without boxes; here they are 0).
    """
    thresh = 0.5
    batchsize_per_image, fg_ratio = 512, 0.25
    fname = "bbox_head_loss_pre"
    if len(bboxes) != len(labels):
        raise ValueError(f"{fname}: bboxes and labels must have one entry per image, got {len(bboxes)} "
                         f"and {len(labels)}")
    for i, (bbox, label) in enumerate(zip(bboxes, labels)):
        check_bbox(fname, backend.to_cpu(bbox), f"bboxes[{i}]")
        if label.shape != (len(bbox),):
            raise ValueError(f"{fname}: labels[{i}] must have shape ({len(bbox)},) like bboxes[{i}], got "
                             f"{label.shape}")
    n_level = len(rois)
    rois, roi_indices, levels = flatten_levels(rois, roi_indices)
    xp = backend.get_array_module(rois)
    gt_locs = xp.zeros_like(rois)
    gt_labels = xp.zeros_like(roi_indices)
    n_fg = int(batchsize_per_image * fg_ratio)
    for i in numpy.unique(backend.to_cpu(roi_indices)):
        if i >= len(bboxes):
            raise ValueError(f"{fname}: roi_indices name image {i}, but bboxes has {len(bboxes)} images")
        index = xp.flatnonzero(roi_indices == i)
        if len(bboxes[i]):
            iou = utils.bbox_iou(rois[index], bboxes[i])
            gt_index = iou.argmax(axis=1)
            gt_locs[index] = encode_yxhw(xp, bboxes[i][gt_index], rois[index], std)
            gt_label = labels[i][gt_index].astype(numpy.int32) + 1
            gt_label[iou.max(axis=1) < thresh] = 0
        else:
            gt_label = xp.zeros(len(index), dtype=numpy.int32)

        fg_index = xp.flatnonzero(gt_label > 0)
        if len(fg_index) > n_fg:
            gt_label[choice(fg_index, size=len(fg_index) - n_fg)] = -1
        bg_index = xp.flatnonzero(gt_label == 0)
        n_bg = batchsize_per_image - int((gt_label > 0).sum())
        if len(bg_index) > n_bg:
            gt_label[choice(bg_index, size=len(bg_index) - n_bg)] = -1
        gt_labels[index] = gt_label

    keep = gt_labels >= 0
    return split_levels(levels[keep], n_level, rois[keep], roi_indices[keep], gt_locs[keep], gt_labels[keep])


def bbox_head_loss_post(locs, confs, roi_indices, gt_locs, gt_labels, batchsize: int):
    """The box head's loss on the RoIs :func:`bbox_head_loss_pre` kept.

    Per image: smooth L1 (beta 1) of the foreground RoIs' offsets for their class, over the image's
    RoIs, and the softmax cross entropy of the classes; each summed over the images and divided by
    ``batchsize``.

    Parameters
    ----------
    locs, confs : Variables
        ``BboxHead.forward``'s outputs (R, n_class, 4) and (R, n_class) on those RoIs.
    roi_indices, gt_locs, gt_labels : lists of arrays
        :func:`bbox_head_loss_pre`'s outputs.
    batchsize : int

    Returns
    -------
    (Variable, Variable)
        ``loc_loss`` and ``conf_loss``, scalars.
    """
    xp = backend.get_array_module(locs.array)
    roi_indices = xp.concatenate(list(roi_indices)).astype(numpy.int32, copy=False)
    gt_locs = xp.concatenate(list(gt_locs)).astype(numpy.float32, copy=False)
    gt_labels = xp.concatenate(list(gt_labels)).astype(numpy.int32, copy=False)
    if locs.shape[0] != len(roi_indices) or confs.shape[0] != len(roi_indices):
        raise ValueError(f"bbox_head_loss_post: locs and confs must hold one row per RoI ({len(roi_indices)}), "
                         f"got locs.shape={locs.shape}, confs.shape={confs.shape}")
    loc_loss = conf_loss = xp.zeros((), locs.dtype)
    for i in numpy.unique(backend.to_cpu(roi_indices)):
        index = xp.flatnonzero(roi_indices == i)
        gt_label = gt_labels[index]
        fg = xp.flatnonzero(gt_label > 0)
        loc = locs[index[fg], gt_label[fg]]
        loc_loss = loc_loss + F.sum(smooth_l1(loc, gt_locs[index[fg]], 1)) / len(index)
        conf_loss = conf_loss + F.softmax_cross_entropy(confs[index], gt_label)
    return as_variable(loc_loss / batchsize), as_variable(conf_loss / batchsize)

