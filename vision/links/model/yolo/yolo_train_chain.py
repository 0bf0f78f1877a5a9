"""YOLOTrainChain and yolo_loss: training losses of YOLOv2 and YOLOv3. ChainerCV ships none; these follow the
papers (Redmon & Farhadi, "YOLO9000: Better, Faster, Stronger", CVPR 2017; "YOLOv3: An Incremental
Improvement", arXiv:1804.02767, 2018) where they define the loss, and darknet's choices where they do not
(each marked below)."""
import numpy

import kusari
import kusari.functions as F
from kusari import backend
from kusari.vision.utils import bbox_iou


def anchor_geometry(model):
    """The anchors of a YOLOv2 or YOLOv3 ``model`` on the host: ``cells`` (K, 2) their grid cell ``(v, u)``,
    ``steps`` (K,) the cell size in pixels, ``sizes`` (K, 2) the prior ``(h, w)`` in pixels and
    ``prior_ids`` (K,) which distinct prior each one is."""
    default = backend.to_cpu(model._default_bbox)
    if hasattr(model, "_step"):   # YOLOv3: three grids, priors given in pixels
        steps = backend.to_cpu(model._step).astype(numpy.float32)
        sizes = default[:, 2:]
    else:                         # YOLOv2: one grid, priors given in cells
        steps = numpy.full(len(default), model.insize / model.extractor.grid, numpy.float32)
        sizes = default[:, 2:] * steps[:, None]
    _, prior_ids = numpy.unique(sizes, axis=0, return_inverse=True)
    return default[:, :2], steps, sizes, prior_ids.ravel()


def _decode(locs, cells, steps, sizes):
    """Boxes (B, K, 4) ``(y_min, x_min, y_max, x_max)`` in pixels from offsets (B, K, 4)."""
    center = (cells + 1 / (1 + numpy.exp(-locs[..., :2]))) * steps[:, None]
    size = sizes * numpy.exp(numpy.minimum(locs[..., 2:], 20))
    return numpy.concatenate((center - size / 2, center + size / 2), axis=-1)


def yolo_targets(locs, anchors, insize: int, bboxes, labels, ignore_thresh: float):
    """The targets of each anchor of each image.

    Each ground-truth box is assigned to one anchor: the prior whose shape (centered on the box) overlaps
    it most, in the grid cell holding the box's center (both papers). A later box assigned to the same
    anchor replaces the earlier one (as darknet). An anchor not assigned is ignored by the objectness
    loss when its current prediction overlaps a box by more than ``ignore_thresh`` (YOLOv3's paper: 0.5),
    else its target is "no object".

    Parameters
    ----------
    locs : numpy.ndarray, shape (B, K, 4)
        The current offsets (to find the predictions to ignore).
    anchors : tuple
        :func:`anchor_geometry`'s output.
    insize : int
    bboxes, labels : lists of numpy.ndarray
        Image ``b``'s boxes (R_b, 4) in pixels of the ``insize`` input and classes (R_b,).

    Returns
    -------
    dict of numpy.ndarray
        ``assigned`` (B, K) bool, ``xy`` (B, K, 2) the box centers within their cells, ``wh`` (B, K, 2)
        log of the box sizes over the priors', ``label`` (B, K) int32 (-1 where not assigned) and
        ``obj_weight`` (B, K) float32 (0 for ignored anchors).
    """
    cells, steps, sizes, prior_ids = anchors
    B, K = locs.shape[:2]
    fname = "yolo_targets"
    if len(bboxes) != B or len(labels) != B:
        raise ValueError(f"{fname}: bboxes and labels must have one entry per image ({B}), got {len(bboxes)} and "
                         f"{len(labels)}")
    priors = numpy.zeros((prior_ids.max() + 1, 2), numpy.float32)
    priors[prior_ids] = sizes
    targets = {"assigned": numpy.zeros((B, K), bool), "xy": numpy.zeros((B, K, 2), numpy.float32),
               "wh": numpy.zeros((B, K, 2), numpy.float32), "label": numpy.full((B, K), -1, numpy.int32),
               "obj_weight": numpy.ones((B, K), numpy.float32)}
    predicted = _decode(locs, cells, steps, sizes)
    for b, (bbox, label) in enumerate(zip(bboxes, labels)):
        bbox = numpy.asarray(bbox, numpy.float32).reshape(-1, 4)
        if len(label) != len(bbox):
            raise ValueError(f"{fname}: labels[{b}] has {len(label)} entries for {len(bbox)} boxes")
        if len(bbox) == 0:
            continue
        size = bbox[:, 2:] - bbox[:, :2]
        if (size <= 0).any():
            raise ValueError(f"{fname}: bboxes[{b}] holds a box of no area: {bbox[(size <= 0).any(axis=1)][0]}")
        ignored = bbox_iou(predicted[b], bbox).max(axis=1) > ignore_thresh
        targets["obj_weight"][b, ignored] = 0
        center = (bbox[:, :2] + bbox[:, 2:]) / 2
        inter = numpy.minimum(size[:, None], priors[None]).prod(axis=2)
        shape_iou = inter / (size.prod(axis=1)[:, None] + priors.prod(axis=1)[None] - inter)
        for g, prior in enumerate(shape_iou.argmax(axis=1)):
            candidates = numpy.flatnonzero(prior_ids == prior)
            grid = numpy.round(insize / steps[candidates])
            cell = numpy.minimum(numpy.floor(center[g] / steps[candidates][:, None]), grid[:, None] - 1)
            k = candidates[(cells[candidates] == cell).all(axis=1)][0]
            targets["assigned"][b, k] = True
            targets["xy"][b, k] = center[g] / steps[k] - cells[k]
            targets["wh"][b, k] = numpy.log(size[g] / sizes[k])
            targets["label"][b, k] = label[g]
            targets["obj_weight"][b, k] = 1
    return targets


def yolo_loss(locs, objs, confs, targets, version: int):
    """YOLO's loss, summed over the anchors and divided by the batch size.

    * ``loc``: squared error of the assigned anchors' center offsets (after the logistic function) and
      log sizes (both papers: sum of squared errors);
    * ``obj``: objectness of every anchor not ignored, target 1 where assigned, else 0: YOLOv3 logistic
      regression (binary cross entropy); YOLOv2 squared error of the logistic output (the paper
      predicts it through the logistic function; darknet's region layer takes its squared error);
    * ``conf``: the assigned anchors' classes: YOLOv3 independent logistic classifiers (binary cross
      entropy, its paper); YOLOv2 softmax cross entropy (its paper predicts a softmax).

    Parameters
    ----------
    locs, objs, confs : Variables
        The model's outputs (B, K, 4), (B, K), (B, K, n_fg_class).
    targets : dict
        :func:`yolo_targets`' output.
    version : {2, 3}

    Returns
    -------
    (Variable, Variable, Variable)
        ``loc``, ``obj`` and ``conf`` losses, scalars.
    """
    if version not in (2, 3):
        raise ValueError(f"yolo_loss: version must be 2 or 3, got {version!r}")
    xp = backend.get_array_module(locs.array)
    B = locs.shape[0]
    dtype = locs.dtype
    assigned = xp.asarray(targets["assigned"])
    mask = assigned[..., None].astype(dtype)
    loc = (F.sum(F.square(F.sigmoid(locs[..., :2]) - xp.asarray(targets["xy"], dtype)) * mask)
           + F.sum(F.square(locs[..., 2:] - xp.asarray(targets["wh"], dtype)) * mask)) / B
    obj_target = assigned.astype(dtype)
    obj_weight = xp.asarray(targets["obj_weight"], dtype)
    if version == 3:
        obj = F.sum((F.softplus(objs) - objs * obj_target) * obj_weight) / B
    else:
        obj = F.sum(F.square(F.sigmoid(objs) - obj_target) * obj_weight) / B
    index = xp.asarray(numpy.flatnonzero(targets["assigned"].ravel()))
    confs = F.reshape(confs, (-1, confs.shape[-1]))[index]
    label = xp.asarray(targets["label"].ravel()[backend.to_cpu(index)])
    if version == 3:
        one_hot = xp.eye(confs.shape[1], dtype=dtype)[label]
        conf = F.sum(F.softplus(confs) - confs * one_hot) / B
    else:
        conf = -F.sum(F.select_item(F.log_softmax(confs), label)) / B
    return loc, obj, conf


class YOLOTrainChain(kusari.Chain):
    """The training loss of a YOLOv2 or YOLOv3 model: ``loss = loc + obj + conf`` (:func:`yolo_loss`).

    Reports (under the chain's name) ``loss``, ``loss/loc``, ``loss/obj``, ``loss/conf``.

    Parameters
    ----------
    model : YOLOv2 or YOLOv3 (or YOLOv2Tiny)
    ignore_thresh : float
        See :func:`yolo_targets` (default: 0.5, YOLOv3's paper; darknet's YOLOv2 uses 0.6).
    """

    def __init__(self, model, ignore_thresh: float = 0.5):
        super().__init__()
        with self.init_scope():
            self.model = model
        self.version = 3 if hasattr(model, "_step") else 2
        self.ignore_thresh = ignore_thresh

    def forward(self, imgs, bboxes, labels):
        """imgs (B, 3, insize, insize) in [0, 1]; bboxes, labels: lists of (R_b, 4) pixel boxes and (R_b,)
        classes -> the loss, a scalar."""
        insize = self.model.insize
        if imgs.ndim != 4 or imgs.shape[1:] != (3, insize, insize):
            raise ValueError(f"YOLOTrainChain: imgs must have shape (B, 3, {insize}, {insize}), got {imgs.shape}")
        locs, objs, confs = self.model(imgs)
        targets = yolo_targets(backend.to_cpu(locs.array), anchor_geometry(self.model), insize,
                               [backend.to_cpu(b) for b in bboxes], [backend.to_cpu(lb) for lb in labels],
                               self.ignore_thresh)
        loc, obj, conf = yolo_loss(locs, objs, confs, targets, self.version)
        loss = loc + obj + conf
        kusari.report({"loss": loss, "loss/loc": loc, "loss/obj": obj, "loss/conf": conf}, self)
        return loss
