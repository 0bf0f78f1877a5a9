"""ChainerCV 0.13.1's FCIS (chainercv.experimental.links.model.fcis) on seeded inputs and weights.

Writes ``OUTDIR/fcis/utils.npz`` (inputs included):

- ``mask_voting/{seg_prob,bbox,cls_prob,size}``: seeded RoIs of a 60x80 image (3 foreground classes), and
  ``mask_voting/<case>/{params,seg_prob,bbox,label,score}``: mask_voting's results with the case's JSON
  arguments (``score_thresh``, ``nms_thresh``, ``mask_merge_thresh``, ``binary_thresh``, ``limit``);
- ``proposal_target/{roi,mask,label,bbox}`` and
  ``proposal_target/<case>/{params,norm,mask_size,seed,sample_roi,gt_roi_mask,gt_roi_label,gt_roi_loc}``:
  ProposalTargetCreator called right after ``numpy.random.seed(seed)`` (``params``: JSON constructor
  arguments; ``norm``: JSON ``loc_normalize_*`` arguments; ``mask_size``: JSON).

Writes ``OUTDIR/fcis/resnet101.npz`` (FCISResNet101 on seeded weights, no weights stored):

- ``config`` (JSON constructor arguments), ``seed``, ``keys`` (JSON, every key save_npz writes), ``shapes``
  (JSON ``{key: shape}`` of the float arrays, filled by ``_common.fill_seeded``), ``scaled`` (JSON ``{key:
  factor}``: arrays multiplied by ``factor`` after the fill so that the RPN's and the head's outputs are of
  order one, see ``SCALED``), ``mean``;
- ``img`` (uint8, 3x96x128), ``prepared/shape``, ``prepared/sub`` (``prepare(img)[:, ::8, ::8]``), ``scale``;
- ``forward/{rpn_locs,rpn_scores,rois,roi_indices,anchor}``: the RPN on ``prepare(img)`` in test mode;
  ``forward/{head_rois,head_roi_indices,roi_ag_locs,roi_cls_scores}``: the head on those RoIs (the first
  pass's and the refined ones, ``iter2``), and ``forward/roi_ag_seg_scores`` at the rows
  ``forward/seg_rows`` only (to stay small);
- ``predict/<case>/{params,masks,mask_shape,label,score}``: ``predict([img])`` after ``use_preset`` and the
  case's JSON settings (``masks``: ``numpy.packbits`` of the bool masks, ``mask_shape`` their shape);
- ``train/{img,masks,bboxes,labels,scale,seed}``: a batch (a prepared-size noise image minus the mean, three
  elliptic instances), and ChainerCV's FCISTrainChain on it with ``head.iter2 = False`` (ChainerCV's
  training setting) after ``numpy.random.seed(seed)``: ``train/{rpn_loc_loss,rpn_cls_loss,roi_loc_loss,
  roi_cls_loss,roi_mask_loss,loss}``, the targets drawn (``train/sample_roi``, ``train/gt_roi_label``,
  ``train/gt_roi_mask``, ``train/gt_rpn_label``), ``train/grad_sq/<key>`` (sum of squares of every
  parameter's gradient, float64) and ``train/grad/<key>`` for ``GRAD_KEYS``.

Writes ``OUTDIR/fcis/pretrained_models.npz``: ``table`` (JSON list), every name in FCISResNet101's
``_models`` with its URL, ``param`` and ``cv2`` flag (ChainerCV also takes ``'imagenet'``, outside the table:
ResNet-101's ImageNet weights, copied into the extractor).
"""
import io
import json
import os
import sys

import numpy as np

import _common
import chainer
from chainer import initializers
from chainercv.experimental.links.model import fcis
from chainercv.links.model.faster_rcnn import AnchorTargetCreator
from chainercv.utils import mask_to_bbox

SEED = 4321
# anchors of 32 to 128 pixels (some inside the small training image); 50 proposals in test mode: few RoI bin
# edges and class scores, none of which comes near a rounding edge or a tie (see the printed margins)
PROPOSALS = {"nms_thresh": 0.7, "n_train_pre_nms": 6000, "n_train_post_nms": 300, "n_test_pre_nms": 6000,
             "n_test_post_nms": 50, "force_cpu_nms": False, "min_size": 16}
CONFIG = {"n_fg_class": 2, "min_size": 128, "max_size": 176, "anchor_scales": [2, 4, 8],
          "proposal_creator_params": PROPOSALS}
# the RPN's and the head's last convolutions see features of std ~400 on seeded weights: scaled down so that
# offsets stay small (no overflow in loc2bbox) and scores differ by O(1) between RoIs
SCALED = {"rpn/loc/W": 2e-4, "rpn/score/W": 2e-3, "head/cls_seg/W": 2e-2, "head/ag_loc/W": 5e-3}
GRAD_KEYS = ("rpn/loc/b", "rpn/score/b", "head/ag_loc/b", "head/cls_seg/b")
SEG_ROWS = 24


def saved_keys(link) -> list:
    buffer = io.BytesIO()
    chainer.serializers.save_npz(buffer, link)
    with np.load(io.BytesIO(buffer.getvalue()), allow_pickle=True) as saved:
        return sorted(saved.files)


def random_boxes(rng, n, H, W, low=6.0, high=40.0):
    top_left = rng.uniform(0, 1, (n, 2)) * [H - low, W - low]
    size = rng.uniform(low, high, (n, 2))
    bottom_right = np.minimum(top_left + size, [H, W])
    return np.concatenate([top_left, bottom_right], axis=1).astype(np.float32)


def ellipse_masks(centers, radii, H, W):
    y, x = np.mgrid[:H, :W]
    return np.stack([((y - cy) / ry) ** 2 + ((x - cx) / rx) ** 2 <= 1 for (cy, cx), (ry, rx) in zip(centers, radii)])


def bin_edge_distance(rois, roi_size=21, spatial_scale=1 / 16):
    """How close, in feature cells, the bin edges of position-sensitive pooling come to an integer (where its
    floor and ceil flip) over ``rois``: float32 noise in computed RoIs must not reach it. Edges exactly on an
    integer (RoIs clipped to the image's border) are left out: both sides compute them exactly."""
    rois = np.asarray(rois, np.float64)
    if rois.size == 0:
        return float("inf")
    p = np.arange(roi_size + 1)
    out = []
    for axis in (0, 1):
        start = rois[:, axis] * spatial_scale
        length = np.maximum(rois[:, axis + 2] * spatial_scale - start, 0.1)
        edge = p * (length / roi_size)[:, None] + start[:, None]
        distance = np.abs(edge - np.round(edge))
        out.append(distance[distance > 0].min())
    return float(min(out))


def score_gap(values) -> float:
    """The smallest relative difference between two of ``values`` (0 for a tie)."""
    v = np.sort(np.asarray(values, np.float64).ravel())
    return float((np.diff(v) / v[1:]).min()) if v.size > 1 else float("inf")


def utils_entries():
    rng = np.random.RandomState(17)
    e = {}
    # mask_voting: 40 RoIs of a 60x80 image around 5 objects, 3 foreground classes
    H, W = 60, 80
    objects = random_boxes(rng, 5, H, W, low=12, high=40)
    bbox = objects[rng.randint(0, 5, 40)] + rng.normal(0, 3, (40, 4)).astype(np.float32)
    bbox[:, 2:] = np.maximum(bbox[:, 2:], bbox[:, :2] + 2)
    bbox[:, 0::2] = np.clip(bbox[:, 0::2], 0, H)
    bbox[:, 1::2] = np.clip(bbox[:, 1::2], 0, W)
    yy, xx = np.mgrid[:21, :21] / 20.0
    centre = rng.uniform(0.3, 0.7, (40, 2))
    seg_prob = np.exp(-((yy - centre[:, 0, None, None]) ** 2 + (xx - centre[:, 1, None, None]) ** 2) /
                      rng.uniform(0.05, 0.2, (40, 1, 1)))
    seg_prob = (seg_prob * rng.uniform(0.7, 1.0, seg_prob.shape)).astype(np.float32)
    logits = rng.normal(0, 1.5, (40, 4))
    cls_prob = (np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)).astype(np.float32)
    e.update({"mask_voting/seg_prob": seg_prob, "mask_voting/bbox": bbox.astype(np.float32),
              "mask_voting/cls_prob": cls_prob, "mask_voting/size": np.array([H, W])})
    base = {"score_thresh": 1e-3, "nms_thresh": 0.3, "mask_merge_thresh": 0.5, "binary_thresh": 0.4, "limit": 100}
    voting_cases = {
        "evaluate": {},
        "limit": {"limit": 7},
        "score": {"score_thresh": 0.5},
        "merge": {"mask_merge_thresh": 0.3, "binary_thresh": 0.6, "nms_thresh": 0.5},
        "nothing": {"score_thresh": 2.0},
    }
    for name, change in voting_cases.items():
        params = dict(base, **change)
        v_seg_prob, v_bbox, v_label, v_score = fcis.mask_voting(seg_prob, bbox, cls_prob, (H, W), **params)
        print(f"fcis: mask_voting {name}: {len(v_bbox)} masks, score gap {score_gap(cls_prob):.2e}", flush=True)
        e.update({f"mask_voting/{name}/params": json.dumps(params), f"mask_voting/{name}/seg_prob": v_seg_prob,
                  f"mask_voting/{name}/bbox": v_bbox, f"mask_voting/{name}/label": v_label,
                  f"mask_voting/{name}/score": v_score})

    # ProposalTargetCreator: 4 instances in a 64x80 image, 120 proposals around and away from them
    H, W = 64, 80
    mask = ellipse_masks([(20, 25), (40, 55), (15, 60), (48, 18)], [(12, 15), (14, 18), (9, 12), (10, 9)], H, W)
    gt = mask_to_bbox(mask)
    label = np.array([1, 0, 4, 2], np.int32)
    roi = np.concatenate([gt[rng.randint(0, 4, 80)] + rng.normal(0, 4, (80, 4)).astype(np.float32),
                          random_boxes(rng, 40, H, W)])
    roi[:, 2:] = np.maximum(roi[:, 2:], roi[:, :2] + 1)
    roi[:, 0::2] = np.clip(roi[:, 0::2], 0, H)
    roi[:, 1::2] = np.clip(roi[:, 1::2], 0, W)
    e.update({"proposal_target/roi": roi.astype(np.float32), "proposal_target/mask": mask,
              "proposal_target/label": label, "proposal_target/bbox": gt})
    target_cases = {
        "default": ({}, {}, (21, 21), 5),
        "small": ({"n_sample": 16, "pos_ratio": 0.5, "binary_thresh": 0.6}, {}, 7, 6),
        "all": ({"n_sample": None}, {"loc_normalize_mean": (0.1, -0.2, 0.05, 0.0),
                                     "loc_normalize_std": (0.1, 0.1, 0.2, 0.2)}, (9, 13), 7),
        "strict": ({"n_sample": 64, "pos_iou_thresh": 0.7, "neg_iou_thresh_hi": 0.4, "neg_iou_thresh_lo": 0.0},
                   {}, (21, 21), 8),
    }
    for name, (params, norm, mask_size, seed) in target_cases.items():
        np.random.seed(seed)
        creator = fcis.ProposalTargetCreator(**params)
        if params.get("n_sample", 128) is None:   # ChainerCV 0.13.1 reads self.n_sample for the negatives
            creator.n_sample = len(roi) + len(gt)
        out = creator(roi, mask, label, gt, mask_size=mask_size, **norm)
        print(f"fcis: proposal_target {name}: {len(out[0])} samples, {int((out[2] > 0).sum())} foreground",
              flush=True)
        e.update({f"proposal_target/{name}/params": json.dumps(params), f"proposal_target/{name}/norm": json.dumps(norm),
                  f"proposal_target/{name}/mask_size": json.dumps(mask_size),
                  f"proposal_target/{name}/seed": np.int64(seed)})
        for key, value in zip(("sample_roi", "gt_roi_mask", "gt_roi_label", "gt_roi_loc"), out):
            e[f"proposal_target/{name}/{key}"] = value
    return e


class Recording:
    """Wraps a target creator and keeps what it returned last."""

    def __init__(self, creator):
        self.creator = creator
        self.out = None

    def __call__(self, *args, **kwargs):
        self.out = self.creator(*args, **kwargs)
        return self.out


def resnet101_entries():
    zero = initializers.Zero()   # every weight is overwritten: skip the sampling
    model = fcis.FCISResNet101(resnet_initialW=zero, rpn_initialW=zero, head_initialW=zero, **CONFIG)
    shapes = _common.fill_seeded(model, SEED)
    params = dict(model.namedparams())
    for key, factor in SCALED.items():
        params["/" + key].array *= factor
    rng = np.random.RandomState(SEED)
    img = rng.randint(0, 256, (3, 96, 128)).astype(np.uint8)
    e = {"config": json.dumps(CONFIG), "seed": np.int64(SEED), "keys": json.dumps(saved_keys(model)),
         "shapes": json.dumps({k: list(v) for k, v in shapes.items()}, sort_keys=True),
         "scaled": json.dumps(SCALED, sort_keys=True), "mean": np.asarray(model.mean), "img": img}

    x = model.prepare(img.astype(np.float32))
    scale = x.shape[2] / img.shape[2]
    e.update({"prepared/shape": np.array(x.shape), "prepared/sub": x[:, ::8, ::8], "scale": np.float64(scale)})
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        res4, res5 = model.extractor(x[None])
        rpn_locs, rpn_scores, rois, roi_indices, anchor = model.rpn(res4, x.shape[1:], [scale])
        segs, locs, cls, head_rois, head_indices = model.head(res5, rois, roi_indices, x.shape[1:])
    seg_rows = np.arange(0, len(head_rois), max(1, len(head_rois) // SEG_ROWS))
    cls_prob = chainer.functions.softmax(cls).array
    print(f"fcis: features std {float(res4.array.std()):.1f} / {float(res5.array.std()):.1f}, {len(rois)} RoIs, "
          f"rpn locs std {float(rpn_locs.array.std()):.3f}, head locs std {float(locs.array.std()):.3f}, "
          f"class scores std {float(cls.array.std()):.3f}, fg probability in [{cls_prob[:, 1:].min():.3f}, "
          f"{cls_prob[:, 1:].max():.3f}], score gap {score_gap(cls_prob[:, 1:]):.2e}, "
          f"seg scores std {float(segs.array.std()):.2f}, nearest bin edge {bin_edge_distance(head_rois):.2e} cells",
          flush=True)
    e.update({"forward/rpn_locs": rpn_locs.array, "forward/rpn_scores": rpn_scores.array, "forward/rois": rois,
              "forward/roi_indices": roi_indices, "forward/anchor": anchor, "forward/head_rois": head_rois,
              "forward/head_roi_indices": head_indices, "forward/roi_ag_locs": locs.array,
              "forward/roi_cls_scores": cls.array, "forward/seg_rows": seg_rows,
              "forward/roi_ag_seg_scores": segs.array[seg_rows]})

    predict_cases = {"evaluate": ("evaluate", {}), "visualize": ("visualize", {"score_thresh": 0.45}),
                     "coco_evaluate": ("coco_evaluate", {"limit": 20, "mask_merge_thresh": 0.3})}
    for name, (preset, change) in predict_cases.items():
        model.use_preset(preset)
        for key, value in change.items():
            setattr(model, key, value)
        (masks,), (label,), (score,) = model.predict([img])
        print(f"fcis: predict {name}: {len(label)} masks of {masks.sum(axis=(1, 2)).tolist()[:8]}... pixels, "
              f"labels {np.bincount(label, minlength=2).tolist()}", flush=True)
        e.update({f"predict/{name}/params": json.dumps({"preset": preset, **change}),
                  f"predict/{name}/masks": np.packbits(masks), f"predict/{name}/mask_shape": np.array(masks.shape),
                  f"predict/{name}/label": label, f"predict/{name}/score": score})

    H, W = 128, 160
    img_train = rng.randint(0, 256, (3, H, W)).astype(np.uint8)
    masks = ellipse_masks([(40, 50), (85, 110), (30, 125)], [(25, 35), (30, 40), (18, 22)], H, W)[None]
    bboxes = mask_to_bbox(masks[0])[None]
    labels = np.array([[1, 0, 1]], np.int32)
    scale_train = np.array([1.25], np.float32)
    train_seed = 13
    anchor_target = Recording(AnchorTargetCreator())
    proposal_target = Recording(fcis.ProposalTargetCreator())
    model.head.iter2 = False
    chain = fcis.FCISTrainChain(model, anchor_target_creator=anchor_target, proposal_target_creator=proposal_target)
    x_train = (img_train.astype(np.float32) - model.mean)[None]
    np.random.seed(train_seed)
    observation = {}
    reporter = chainer.Reporter()
    reporter.add_observer("main", chain)
    with chainer.using_config("train", True), reporter.scope(observation):
        loss = chain(x_train, masks, labels, bboxes, scale_train)
    model.cleargrads()
    loss.backward()
    sample_roi, gt_roi_mask, gt_roi_label, _ = proposal_target.out
    e.update({"train/img": img_train, "train/masks": masks, "train/bboxes": bboxes, "train/labels": labels,
              "train/scale": scale_train, "train/seed": np.int64(train_seed), "train/sample_roi": sample_roi,
              "train/gt_roi_label": gt_roi_label, "train/gt_roi_mask": gt_roi_mask,
              "train/gt_rpn_label": anchor_target.out[1]})
    for name in ("rpn_loc_loss", "rpn_cls_loss", "roi_loc_loss", "roi_cls_loss", "roi_mask_loss", "loss"):
        e[f"train/{name}"] = np.asarray(observation[f"main/{name}"].array)
    print(f"fcis: train losses {[round(float(e[k]), 4) for k in sorted(e) if k.endswith('_loss')]}, "
          f"{int((gt_roi_label > 0).sum())} foreground RoIs of {len(gt_roi_label)}, "
          f"{int((anchor_target.out[1] == 1).sum())} positive anchors, "
          f"nearest bin edge {bin_edge_distance(sample_roi):.2e} cells", flush=True)
    for path, param in sorted(model.namedparams()):
        key = path.lstrip("/")
        if param.grad is None:       # conv1 and res2: frozen by the extractor
            continue
        e[f"train/grad_sq/{key}"] = np.float64(np.sum(np.square(param.grad.astype(np.float64))))
        if key in GRAD_KEYS:
            e[f"train/grad/{key}"] = param.grad
    return e


def pretrained_table():
    return [{"name": name, "url": model["url"], "param": model["param"], "cv2": model.get("cv2", False)}
            for name, model in sorted(fcis.FCISResNet101._models.items())]


def main(out_root):
    out_dir = os.path.join(out_root, "fcis")
    os.makedirs(out_dir, exist_ok=True)
    _common.save_npz(os.path.join(out_dir, "utils.npz"), utils_entries())
    _common.save_npz(os.path.join(out_dir, "pretrained_models.npz"), {"table": json.dumps(pretrained_table())})
    _common.save_npz(os.path.join(out_dir, "resnet101.npz"), resnet101_entries())


if __name__ == "__main__":
    main(sys.argv[1])
