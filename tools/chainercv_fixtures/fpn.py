"""ChainerCV's FPN package (chainercv.links.model.fpn) on seeded weights and fixed inputs: what
kusari.vision.links.model.fpn must reproduce.

Writes under ``OUTDIR/fpn/``:

- ``units.npz``: the parts on fixed random inputs, each case's entries under ``<case>/``:

  * ``anchors``: ``RPN(SCALES).anchors(ANCHOR_SIZES)`` as ``out/<l>``.
  * ``rpn_decode`` and ``rpn_decode_train``: ``RPN.decode`` of random ``locs/<l>`` (N, K_l, 4) and
    ``confs/<l>`` (N, K_l) on those anchors for ``in_shape``, in test and training mode, the instance's
    NMS limits lowered to ``limit_pre`` / ``limit_post``; ``rois``, ``roi_indices``.
  * ``bbox_distribute`` and ``mask_distribute``: ``BboxHead.distribute`` / ``MaskHead.distribute`` of
    random ``rois`` (R, 4) of many sizes with ``roi_indices``; ``out_rois/<l>``, ``out_roi_indices/<l>``
    (and ``order`` for the mask head).
  * ``bbox_decode``: ``BboxHead.decode`` of the distributed RoIs (``rois/<l>``, ``roi_indices/<l>``), random
    ``locs`` (some large enough to push boxes out of the image, which clipping turns inside out) and
    ``confs``, ``scales``, ``sizes``, ``nms_thresh``, ``score_thresh``; ``bboxes/<i>``, ``labels/<i>``,
    ``scores/<i>``.
  * ``segm_to_mask``: ``segm`` (``seeded_uniform(500, (8, 28, 28), 0, 1)``), ``bbox`` (inside, across
    the border, tiny, rounding to zero
    size), ``size``; ``mask``.
  * ``mask_to_segm``: ``mask`` (N, H, W) bool, ``bbox``, ``index``, ``segm_size``; ``segm``.
  * ``smooth_l1``: ``x``, ``t``, ``beta``; ``y``.
  * ``scale_img``: ``img``, ``min_size``, ``max_size`` (two settings: ``<case>/<k>/...``); ``out``, ``scale``.
  * ``rpn_loss``: ``rpn_loss`` of ``locs/<l>`` and ``confs/<l>`` (``seeded_normal(100 + l, ..., 0.3)`` and
    ``seeded_normal(200 + l, ...)`` of tests/vision/seeded_weights.py) for two images of a 128x192 batch
    (anchors of ``sizes_hw``), ``sizes``, ``bboxes/<i>`` (the second image has none), NumPy's global seed
    ``seed``: ``loc_loss``, ``conf_loss`` and the gradient of their sum, ``grad_locs/<l>``,
    ``grad_confs/<l>``.
  * ``bbox_loss``: ``bbox_head_loss_pre`` of ``rois/<l>``, ``roi_indices/<l>`` (two images, enough RoIs
    that both samplers draw), ``std``, ``bboxes/<i>``, ``labels/<i>`` after seeding NumPy with ``seed``:
    ``pre/rois/<l>``, ``pre/roi_indices/<l>``, ``pre/gt_locs/<l>`` (0 for the image without boxes, whose
    offsets ChainerCV leaves uninitialized), ``pre/gt_labels/<l>``; then
    ``bbox_head_loss_post`` of ``locs`` (``seeded_normal(300, (R, 5, 4))``) and ``confs``
    (``seeded_normal(301, (R, 5))``) for those RoIs (level order), ``batchsize``: ``loc_loss``,
    ``conf_loss``, ``grad_locs``, ``grad_confs``.
  * ``mask_loss``: ``mask_head_loss_pre`` of ``rois/<l>``, ``roi_indices/<l>``, ``gt_masks/<i>``,
    ``gt_bboxes/<i>``, ``gt_head_labels/<l>`` (``n_class`` classes), ``segm_size``: ``pre/...`` (its four
    lists); then ``mask_head_loss_post`` of ``segms`` (``seeded_normal(400, (R, n_class, 14, 14), 2)``):
    ``loss``, and ``grad_segms`` (R, 14, 14), the gradient at each RoI's ground-truth class (it is zero
    elsewhere).
  * ``pretrained/table`` (JSON list): every ``pretrained_model=`` name of each model class's ``_models``,
    with its URL, ``param`` and ``cv2`` flag.

- ``<model>.npz`` for each configuration of ``MODELS``: ``config`` (JSON: class, constructor arguments,
  ``nms_thresh``, ``score_thresh`` and the RPN's NMS limits when changed), ``seed``, ``keys`` (JSON: every
  key ``save_npz`` writes), ``shapes`` (JSON ``{key: shape}``, filled by ``_common.fill_seeded``),
  ``rescale`` (JSON ``{key: factor}``: arrays multiplied by a factor after the filling), ``shapes_img``;
  what ``predict`` returned on the images ``seeded_uniform(seed + i, shapes_img[i], 0, 255)``
  (``<value>/<i>`` for each of ``return_values``; masks as ``masks/<i>``, bool arrays bit-packed with
  ``numpy.packbits`` along the last axis, with ``masks/<i>/shape``); and what it computed on the way:
  ``scales``, ``x_sum`` (the prepared batch summed over its spatial axes), ``hs_sum/<l>`` (each feature
  map summed over channels), ``hs_mean/<l>`` (over its spatial axes), ``rpn_rois``, ``rpn_roi_indices``,
  ``head_locs``, ``head_confs`` (the box head's outputs, RoIs in level order), ``segms/<i>`` (the mask
  head's sigmoid for each detection's class), and for the model ``RAW_RPN`` the RPN's ``rpn_locs/<l>``
  and ``rpn_confs/<l>``.

ChainerCV's CPU RoIAlign (Chainer's roi_average_align_2d) is a Python loop over output elements: the
first model, with ChainerCV's RPN limits (up to 1000 RoIs), takes about ten minutes. The environment
variable ``FPN_CASES`` (comma-separated: ``units`` and model names) restricts a run to some files.
"""
import io
import json
import os
import sys

import numpy as np

import _common
import chainer
import seeded_weights
from chainercv.links.model import fpn
from chainercv.links.model.fpn import misc

SCALES = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)
ANCHOR_SIZES = ((6, 8), (3, 4), (2, 2), (1, 1), (1, 1))
N_FG_CLASS = 4

# name -> (class name, constructor kwargs, image shapes, nms_thresh, score_thresh, RPN limits or None)
MODELS = {
    "faster_rcnn_fpn_resnet50": ("FasterRCNNFPNResNet50",
                                 {"min_size": 96, "max_size": 160,
                                  "return_values": ["rois", "bboxes", "labels", "scores"]},
                                 [(3, 128, 160)], 0.5, 0.05, None),
    "faster_rcnn_fpn_resnet101": ("FasterRCNNFPNResNet101", {"min_size": 320, "max_size": 416},
                                  [(3, 128, 160)], 0.5, 0.1, (100, 100)),
    "mask_rcnn_fpn_resnet50": ("MaskRCNNFPNResNet50",
                               {"min_size": 96, "max_size": 160,
                                "return_values": ["rois", "bboxes", "labels", "scores", "masks"]},
                               [(3, 128, 160)], 0.4, 0.47, (150, 150)),
    "mask_rcnn_fpn_resnet101": ("MaskRCNNFPNResNet101", {"min_size": 96, "max_size": 128},
                                [(3, 128, 160), (3, 120, 100)], 0.5, 0.985, (100, 80)),
}
RAW_RPN = "faster_rcnn_fpn_resnet50"
# seeded weights keep activations of order one for inputs of order one; images are of order 100, so the
# first convolution is scaled down (and the box offsets stay moderate)
RESCALE = {"extractor/base/conv1/conv/W": 1 / 128, "rpn/loc/W": 0.25}


def seed_of(name: str) -> int:
    return sum(map(ord, name))


def saved_keys(link) -> list:
    buffer = io.BytesIO()
    chainer.serializers.save_npz(buffer, link)
    with np.load(io.BytesIO(buffer.getvalue()), allow_pickle=True) as saved:
        return sorted(saved.files)


def put_list(entries, key, arrays):
    for i, a in enumerate(arrays):
        entries[f"{key}/{i}"] = np.asarray(a)


def random_rois(rng, n, hw, min_side, max_side):
    """``n`` boxes (float32) with sides log-uniform in [min_side, max_side], centres in the ``hw`` image."""
    side = np.exp(rng.uniform(np.log(min_side), np.log(max_side), (n, 2)))
    centre = rng.uniform(0, 1, (n, 2)) * np.array(hw)
    return np.concatenate([centre - side / 2, centre + side / 2], axis=1).astype(np.float32)


# --- units ---------------------------------------------------------------------------------------

def unit_rpn(entries, rng):
    rpn = fpn.RPN(SCALES)
    anchors = rpn.anchors(ANCHOR_SIZES)
    put_list(entries, "anchors/out", anchors)
    for case, train in (("rpn_decode", False), ("rpn_decode_train", True)):
        n = 2
        locs = [rng.normal(0, 0.5, (n, len(a), 4)).astype(np.float32) for a in anchors]
        confs = [rng.normal(0, 1, (n, len(a))).astype(np.float32) for a in anchors]
        rpn._test_nms_limit_pre, rpn._test_nms_limit_post = 40, 30
        rpn._train_nms_limit_pre, rpn._train_nms_limit_post = 50, 35
        with chainer.using_config("train", train):
            rois, roi_indices = rpn.decode([chainer.Variable(l) for l in locs],
                                           [chainer.Variable(c) for c in confs], anchors, (n, 3, 24, 32))
        put_list(entries, f"{case}/locs", locs)
        put_list(entries, f"{case}/confs", confs)
        entries[f"{case}/in_shape"] = np.array((n, 3, 24, 32))
        entries[f"{case}/limit_pre"] = np.int64(50 if train else 40)
        entries[f"{case}/limit_post"] = np.int64(35 if train else 30)
        entries[f"{case}/rois"] = rois
        entries[f"{case}/roi_indices"] = roi_indices


def unit_heads(entries, rng):
    n_class = N_FG_CLASS + 1
    bbox_head = fpn.BboxHead(n_class, SCALES)
    rois = random_rois(rng, 80, (300, 400), 4, 700)
    roi_indices = rng.randint(0, 2, 80).astype(np.int32)
    out_rois, out_roi_indices = bbox_head.distribute(rois, roi_indices)
    entries["bbox_distribute/rois"] = rois
    entries["bbox_distribute/roi_indices"] = roi_indices
    put_list(entries, "bbox_distribute/out_rois", out_rois)
    put_list(entries, "bbox_distribute/out_roi_indices", out_roi_indices)

    mask_head = fpn.MaskHead(n_class, SCALES)
    mrois = random_rois(rng, 30, (200, 250), 3, 500)
    mroi_indices = rng.randint(0, 3, 30).astype(np.int32)
    m_rois, m_indices, order = mask_head.distribute(mrois, mroi_indices)
    entries["mask_distribute/rois"] = mrois
    entries["mask_distribute/roi_indices"] = mroi_indices
    put_list(entries, "mask_distribute/out_rois", m_rois)
    put_list(entries, "mask_distribute/out_roi_indices", m_indices)
    entries["mask_distribute/order"] = order

    r = len(rois)
    locs = rng.normal(0, 1, (r, n_class, 4)).astype(np.float32)
    locs[rng.rand(r, n_class) < 0.08] *= 30   # boxes pushed off the image: clipped inside out
    confs = rng.normal(0, 1.5, (r, n_class)).astype(np.float32)
    scales, sizes = [1.25, 0.8], [(230, 310), (250, 330)]
    with chainer.using_config("train", False):
        bboxes, labels, scores = bbox_head.decode(out_rois, out_roi_indices, chainer.Variable(locs),
                                                  chainer.Variable(confs), scales, sizes, 0.5, 0.3)
    put_list(entries, "bbox_decode/rois", out_rois)
    put_list(entries, "bbox_decode/roi_indices", out_roi_indices)
    entries["bbox_decode/locs"] = locs
    entries["bbox_decode/confs"] = confs
    entries["bbox_decode/scales"] = np.array(scales)
    entries["bbox_decode/sizes"] = np.array(sizes)
    entries["bbox_decode/nms_thresh"] = np.float64(0.5)
    entries["bbox_decode/score_thresh"] = np.float64(0.3)
    put_list(entries, "bbox_decode/bboxes", bboxes)
    put_list(entries, "bbox_decode/labels", labels)
    put_list(entries, "bbox_decode/scores", scores)


def unit_masks(entries, rng):
    segm = seeded_weights.seeded_uniform(500, (8, 28, 28), 0, 1)
    bbox = np.array([[5.2, 6.1, 30.7, 41.3], [-8.4, -3.2, 12.5, 20.1], [20.3, 30.2, 55.8, 70.4],
                     [10.2, 10.4, 10.9, 11.1], [3.5, 4.5, 3.6, 4.6], [0.0, 0.0, 40.0, 50.0],
                     [35.1, 44.2, 39.9, 49.8], [-20.0, -20.0, -5.0, -4.0]], np.float32)
    entries["segm_to_mask/bbox"] = bbox
    entries["segm_to_mask/size"] = np.array((40, 50))
    entries["segm_to_mask/mask"] = fpn.segm_to_mask(segm, bbox, (40, 50))

    mask = rng.uniform(0, 1, (3, 40, 50)) > 0.4
    mbbox = np.array([[5.2, 6.1, 30.7, 41.3], [-8.4, -3.2, 12.5, 20.1], [20.3, 30.2, 55.8, 70.4],
                      [10.2, 10.4, 12.9, 14.1], [45.0, 55.0, 60.0, 70.0], [0.0, 0.0, 40.0, 50.0]],
                     np.float32)
    index = np.array([0, 2, 1, 1, 0, 2], np.int32)
    entries["mask_to_segm/mask"] = mask
    entries["mask_to_segm/bbox"] = mbbox
    entries["mask_to_segm/index"] = index
    entries["mask_to_segm/segm_size"] = np.int64(14)
    entries["mask_to_segm/segm"] = fpn.mask_utils.mask_to_segm(mask, mbbox, 14, index)
    entries["mask_to_segm/segm_no_index"] = fpn.mask_utils.mask_to_segm(mask, mbbox[:3], 14)


def unit_misc(entries, rng):
    x = rng.normal(0, 1, (6, 4)).astype(np.float32)
    t = rng.normal(0, 1, (6, 4)).astype(np.float32)
    entries["smooth_l1/x"], entries["smooth_l1/t"], entries["smooth_l1/beta"] = x, t, np.float64(1 / 9)
    entries["smooth_l1/y"] = misc.smooth_l1(x, t, 1 / 9).array
    img = rng.uniform(0, 255, (3, 15, 22)).astype(np.float32)
    entries["scale_img/img"] = img
    for k, (min_size, max_size) in enumerate(((20, 40), (20, 26))):
        out, scale = misc.scale_img(img, min_size, max_size)
        entries[f"scale_img/{k}/min_size"] = np.int64(min_size)
        entries[f"scale_img/{k}/max_size"] = np.int64(max_size)
        entries[f"scale_img/{k}/out"] = out
        entries[f"scale_img/{k}/scale"] = np.float64(scale)


def unit_rpn_loss(entries, rng):
    rpn = fpn.RPN(SCALES)
    sizes_hw = ((32, 48), (16, 24), (8, 12), (4, 6), (2, 3))
    anchors = rpn.anchors(sizes_hw)
    n = 2
    locs = [chainer.Variable(seeded_weights.seeded_normal(100 + l, (n, len(a), 4), 0.3))
            for l, a in enumerate(anchors)]
    confs = [chainer.Variable(seeded_weights.seeded_normal(200 + l, (n, len(a))))
             for l, a in enumerate(anchors)]
    sizes = [(120, 180), (128, 160)]
    # enough boxes that more than 64 anchors are foreground; the second image has none
    bboxes = [random_rois(rng, 40, (120, 180), 24, 100), np.zeros((0, 4), np.float32)]
    np.random.seed(11)
    loc_loss, conf_loss = fpn.rpn_loss(locs, confs, anchors, sizes, bboxes)
    (loc_loss + conf_loss).backward()
    entries["rpn_loss/sizes_hw"] = np.array(sizes_hw)
    entries["rpn_loss/sizes"] = np.array(sizes)
    put_list(entries, "rpn_loss/bboxes", bboxes)
    entries["rpn_loss/seed"] = np.int64(11)
    entries["rpn_loss/loc_loss"] = loc_loss.array
    entries["rpn_loss/conf_loss"] = conf_loss.array
    put_list(entries, "rpn_loss/grad_locs", [v.grad for v in locs])   # mostly zeros: compresses well
    put_list(entries, "rpn_loss/grad_confs", [v.grad for v in confs])


def unit_bbox_loss(entries, rng):
    head = fpn.BboxHead(N_FG_CLASS + 1, SCALES)
    hw = (480, 640)
    gt = [random_rois(rng, 4, hw, 60, 400), np.zeros((0, 4), np.float32)]
    labels = [rng.randint(0, N_FG_CLASS, 4).astype(np.int32), np.zeros((0,), np.int32)]
    # near-copies of the ground truth (foreground) and random boxes (mostly background), of every level
    near = np.repeat(gt[0], 60, axis=0) + rng.normal(0, 4, (240, 4)).astype(np.float32)
    rois = np.concatenate([near, random_rois(rng, 500, hw, 16, 600), random_rois(rng, 90, hw, 16, 600)])
    rois = np.concatenate([np.minimum(rois[:, :2], rois[:, 2:]), np.maximum(rois[:, :2], rois[:, 2:])], 1)
    roi_indices = np.concatenate([np.zeros(740, np.int32), np.ones(90, np.int32)])
    rois_l, indices_l = head.distribute(rois, roi_indices)
    std = (0.1, 0.2)
    np.random.seed(12)
    pre = fpn.bbox_head_loss_pre(rois_l, indices_l, std, gt, labels)
    put_list(entries, "bbox_loss/rois", rois_l)
    put_list(entries, "bbox_loss/roi_indices", indices_l)
    put_list(entries, "bbox_loss/bboxes", gt)
    put_list(entries, "bbox_loss/labels", labels)
    entries["bbox_loss/std"] = np.array(std)
    entries["bbox_loss/seed"] = np.int64(12)
    # ChainerCV leaves the offsets of an image without boxes uninitialized: stored as 0
    no_boxes = [i for i, b in enumerate(gt) if len(b) == 0]
    for gt_locs, indices in zip(pre[2], pre[1]):
        gt_locs[np.isin(indices, no_boxes)] = 0
    for name, values in zip(("rois", "roi_indices", "gt_locs", "gt_labels"), pre):
        put_list(entries, f"bbox_loss/pre/{name}", values)
    r = sum(len(v) for v in pre[0])
    locs = chainer.Variable(seeded_weights.seeded_normal(300, (r, N_FG_CLASS + 1, 4)))
    confs = chainer.Variable(seeded_weights.seeded_normal(301, (r, N_FG_CLASS + 1)))
    loc_loss, conf_loss = fpn.bbox_head_loss_post(locs, confs, pre[1], pre[2], pre[3], 2)
    (loc_loss + conf_loss).backward()
    entries["bbox_loss/batchsize"] = np.int64(2)
    entries["bbox_loss/loc_loss"], entries["bbox_loss/conf_loss"] = loc_loss.array, conf_loss.array
    entries["bbox_loss/grad_locs"], entries["bbox_loss/grad_confs"] = locs.grad, confs.grad


def unit_mask_loss(entries, rng):
    n_class = 3
    head = fpn.MaskHead(n_class, SCALES)
    hw = (48, 64)
    gt_bboxes = [random_rois(rng, 3, hw, 10, 40), random_rois(rng, 2, hw, 10, 40)]
    gt_masks = [rng.uniform(0, 1, (3,) + hw) > 0.5, rng.uniform(0, 1, (2,) + hw) > 0.5]
    rois = np.concatenate([random_rois(rng, 14, hw, 6, 60), random_rois(rng, 9, hw, 6, 60)])
    roi_indices = np.concatenate([np.zeros(14, np.int32), np.ones(9, np.int32)])
    rois_l, indices_l, _ = head.distribute(rois, roi_indices)
    head_labels = [rng.randint(0, n_class, len(r)).astype(np.int32) for r in rois_l]
    pre = fpn.mask_head_loss_pre(rois_l, indices_l, gt_masks, gt_bboxes, head_labels, 14)
    put_list(entries, "mask_loss/rois", rois_l)
    put_list(entries, "mask_loss/roi_indices", indices_l)
    put_list(entries, "mask_loss/gt_masks", gt_masks)
    put_list(entries, "mask_loss/gt_bboxes", gt_bboxes)
    put_list(entries, "mask_loss/gt_head_labels", head_labels)
    entries["mask_loss/segm_size"] = np.int64(14)
    for name, values in zip(("rois", "roi_indices", "gt_segms", "gt_mask_labels"), pre):
        put_list(entries, f"mask_loss/pre/{name}", values)
    r = sum(len(v) for v in pre[0])
    segms = chainer.Variable(seeded_weights.seeded_normal(400, (r, n_class, 14, 14), 2.0))
    loss = fpn.mask_head_loss_post(segms, pre[1], pre[2], pre[3], 2)
    loss.backward()
    entries["mask_loss/n_class"] = np.int64(n_class)
    entries["mask_loss/loss"] = loss.array
    # the gradient reaches each RoI's ground-truth class only
    labels = np.hstack(pre[3])
    entries["mask_loss/grad_segms"] = segms.grad[np.arange(r), labels]


def unit_pretrained(entries, rng):
    rows = []
    for name in ("FasterRCNNFPNResNet50", "FasterRCNNFPNResNet101", "MaskRCNNFPNResNet50", "MaskRCNNFPNResNet101"):
        for short, model in sorted(getattr(fpn, name)._models.items()):
            rows.append({"class": name, "name": short, "url": model["url"], "param": model["param"],
                         "cv2": model.get("cv2", False)})
    entries["pretrained/table"] = json.dumps(rows)


def write_units(out_dir):
    entries = {}
    rng = np.random.RandomState(5)
    for unit in (unit_rpn, unit_heads, unit_masks, unit_misc, unit_rpn_loss, unit_bbox_loss, unit_mask_loss,
                 unit_pretrained):
        print(f"fpn: units: {unit.__name__}", flush=True)
        unit(entries, rng)
    _common.save_npz(os.path.join(out_dir, "units.npz"), entries)


# --- models --------------------------------------------------------------------------------------

def initialize(model):
    """Run each part once on a small input, so that every parameter whose input size is deferred exists."""
    x = np.zeros((1, 3, 64, 64), np.float32)
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        hs = model.extractor(x)
        model.rpn(hs)
        rois = [np.array([[0, 0, 16, 16]], np.float32)] * 4 + [np.zeros((0, 4), np.float32)]
        indices = [np.zeros(1, np.int32)] * 4 + [np.zeros(0, np.int32)]
        for head in ("bbox_head", "mask_head"):
            if hasattr(model, head):
                getattr(model, head)(hs, rois, indices)


def rescale(model, factors: dict) -> None:
    """Multiply the arrays named by ``factors``' keys (``save_npz`` keys) by their factors."""
    for key, factor in factors.items():
        link = model
        *path, name = key.split("/")
        for part in path:
            link = link[int(part)] if part.isdigit() else getattr(link, part)
        getattr(link, name).array[...] *= factor


def record(obj, method, store):
    """Wrap ``obj.method`` so that each call appends its (args, result) to ``store``."""
    original = getattr(obj, method)

    def wrapper(*args):
        out = original(*args)
        store.append((args, out))
        return out
    object.__setattr__(obj, method, wrapper)


def write_model(out_dir, name, cls, kwargs, shapes, nms_thresh, score_thresh, limits):
    seed = seed_of(name)
    model = cls(n_fg_class=N_FG_CLASS, **kwargs)
    initialize(model)
    filled = _common.fill_seeded(model, seed)
    rescale(model, RESCALE)
    model.nms_thresh, model.score_thresh = nms_thresh, score_thresh
    if limits is not None:
        model.rpn._test_nms_limit_pre, model.rpn._test_nms_limit_post = limits
    imgs = [seeded_weights.seeded_uniform(seed + i, shape, 0, 255) for i, shape in enumerate(shapes)]
    calls = {k: [] for k in ("prepare", "extractor", "rpn", "decode", "bbox_head", "mask_decode")}
    record(model, "prepare", calls["prepare"])
    record(model.extractor, "forward", calls["extractor"])
    record(model.rpn, "forward", calls["rpn"])
    record(model.rpn, "decode", calls["decode"])
    if hasattr(model, "bbox_head"):
        record(model.bbox_head, "forward", calls["bbox_head"])
    if hasattr(model, "mask_head"):
        record(model.mask_head, "decode", calls["mask_decode"])
    outputs = model.predict(imgs)

    config = {"class": cls.__name__, "kwargs": kwargs, "n_fg_class": N_FG_CLASS, "nms_thresh": nms_thresh,
              "score_thresh": score_thresh, "rpn_limits": limits}
    entries = {"config": json.dumps(config), "seed": np.int64(seed), "keys": json.dumps(saved_keys(model)),
               "shapes_img": np.array(shapes), "rescale": json.dumps(RESCALE),
               "shapes": json.dumps({k: list(v) for k, v in filled.items()}, sort_keys=True)}
    return_values = kwargs.get("return_values", cls.__init__.__defaults__[2])
    for value, arrays in zip(return_values, outputs):
        for i, a in enumerate(arrays):
            if value == "masks":
                entries[f"masks/{i}"] = np.packbits(a, axis=-1)
                entries[f"masks/{i}/shape"] = np.array(a.shape)
            else:
                entries[f"{value}/{i}"] = a
    (_, (x, scales)), = calls["prepare"]
    entries["scales"] = np.array(scales)
    entries["x_sum"] = x.sum(axis=(2, 3))
    (_, hs), = calls["extractor"]
    put_list(entries, "hs_sum", [h.array.sum(axis=1) for h in hs])
    put_list(entries, "hs_mean", [h.array.mean(axis=(2, 3)) for h in hs])
    (_, (rois, roi_indices)), = calls["decode"]
    entries["rpn_rois"], entries["rpn_roi_indices"] = rois, roi_indices
    if name == RAW_RPN:
        (_, (locs, confs)), = calls["rpn"]
        put_list(entries, "rpn_locs", [v.array for v in locs])
        put_list(entries, "rpn_confs", [v.array for v in confs])
    if calls["bbox_head"]:
        (_, (locs, confs)), = calls["bbox_head"]
        entries["head_locs"], entries["head_confs"] = locs.array, confs.array
    if calls["mask_decode"]:
        ((segms, _, labels, _), _), = calls["mask_decode"]
        put_list(entries, "segms", [s[np.arange(len(l)), l + 1] for s, l in zip(segms, labels)])
    counts = {value: [len(a) for a in arrays] for value, arrays in zip(return_values, outputs)}
    print(f"fpn: {name}: {counts}", flush=True)
    _common.save_npz(os.path.join(out_dir, f"{name}.npz"), entries)


def main(out_root):
    out_dir = os.path.join(out_root, "fpn")
    os.makedirs(out_dir, exist_ok=True)
    only = [c for c in os.environ.get("FPN_CASES", "").split(",") if c]
    if not only or "units" in only:
        write_units(out_dir)
    for name, (cls_name, kwargs, shapes, nms_thresh, score_thresh, limits) in MODELS.items():
        if only and name not in only:
            continue
        print(f"fpn: {name}", flush=True)
        write_model(out_dir, name, getattr(fpn, cls_name), kwargs, shapes, nms_thresh, score_thresh, limits)


if __name__ == "__main__":
    main(sys.argv[1])
