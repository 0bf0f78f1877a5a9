"""ChainerCV 0.13.1's Faster R-CNN (chainercv.links.model.faster_rcnn) on seeded inputs and weights.

Writes ``OUTDIR/faster_rcnn/utils.npz`` (the box math and the target creators, inputs included):

- ``anchor_base/<case>/{base_size,ratios,anchor_scales,out}``: generate_anchor_base, default and custom;
- ``bbox2loc/<case>/{src,dst,loc}`` (float32, float64, a zero-height source box);
- ``loc2bbox/<case>/{src,loc,bbox}`` (float32, float64, three encodings per box, no boxes);
- ``anchor``, ``img_size``: the anchors of an 8x10 feature map (stride 16, anchor scales 2, 4, 8) in a
  128x160 image, which the creators below share;
- ``proposal/{loc,score}`` and ``proposal/<case>/{params,train,scale,roi}``: ProposalCreator
  (``params``: JSON constructor arguments; ``train``: the mode);
- ``anchor_target/<case>/{bbox,params,seed,loc,label}``: AnchorTargetCreator called right after
  ``numpy.random.seed(seed)``;
- ``proposal_target/{roi,bbox,label}`` and
  ``proposal_target/<case>/{params,norm,seed,sample_roi,gt_roi_loc,gt_roi_label}``: ProposalTargetCreator
  likewise (``norm``: JSON of the ``loc_normalize_*`` arguments).

Writes ``OUTDIR/faster_rcnn/vgg16.npz`` (FasterRCNNVGG16 on seeded weights, no weights stored):

- ``config`` (JSON: constructor arguments), ``seed``, ``keys`` (JSON, every key save_npz writes),
  ``shapes`` (JSON ``{key: shape}`` of the float arrays, filled by ``_common.fill_seeded``), ``mean``;
- ``img`` (uint8, 3x96x128), ``prepared/shape`` and ``prepared/sub`` (``prepare(img)[:, ::8, ::8]``),
  ``scale``;
- ``forward/{rpn_locs,rpn_scores,rois,roi_indices,anchor,roi_cls_locs,roi_scores}``: the RPN's and the
  head's outputs on ``prepare(img)`` in test mode;
- ``predict/<preset>/{nms_thresh,score_thresh,bbox,label,score}`` for the presets ``evaluate`` and
  ``visualize``;
- ``train/{img,bboxes,labels,scales,seed}``: a batch (the image used as is, minus the mean), and
  ChainerCV's FasterRCNNTrainChain on it after ``numpy.random.seed(seed)``:
  ``train/{rpn_loc_loss,rpn_cls_loss,roi_loc_loss,roi_cls_loss,loss}``, the targets it drew
  (``train/gt_roi_label``, ``train/gt_rpn_label``), ``train/grad_sq/<key>`` (sum of squares of the
  gradient of each parameter) and ``train/grad/<key>`` for the RPN's and the head's biases.

Writes ``OUTDIR/faster_rcnn/pretrained_models.npz``: ``table`` (JSON list), every name in
FasterRCNNVGG16's ``_models`` with its URL, ``param`` and ``cv2`` flag (ChainerCV also takes
``'imagenet'``, outside the table: VGG16's weights, copied into the extractor and fc6/fc7).
"""
import json
import os
import sys

import numpy as np

import _common
import chainer
from chainer import initializers
from chainercv.links.model import faster_rcnn as frcnn
from chainercv.links.model.faster_rcnn.region_proposal_network import _enumerate_shifted_anchor

SEED = 1234
# RPN NMS at 0.4: no two RoIs pool the same cells, so no two detections tie in score (ChainerCV orders tied
# scores by NumPy 1.x's unstable quicksort, kusari by descending index; see docs/vision_faster_rcnn.md)
CONFIG = {"n_fg_class": 20, "min_size": 144, "max_size": 240, "proposal_creator_params": {"nms_thresh": 0.4}}
GRAD_KEYS = ("rpn/conv1/b", "rpn/loc/b", "rpn/score/b", "head/cls_loc/b", "head/score/b")


def random_boxes(rng, n, H, W, low=4.0, high=60.0, dtype=np.float32):
    top_left = rng.uniform(0, 1, (n, 2)) * [H - low, W - low]
    size = rng.uniform(low, high, (n, 2))
    bottom_right = np.minimum(top_left + size, [H, W])
    return np.concatenate([top_left, bottom_right], axis=1).astype(dtype)


def jitter(rng, bbox, n, spread):
    """``n`` boxes around the rows of ``bbox`` (proposals that overlap the ground truth)."""
    base = bbox[rng.randint(0, len(bbox), n)]
    out = base + rng.normal(0, spread, base.shape)
    out[:, 2:] = np.maximum(out[:, 2:], out[:, :2] + 1)
    return out.astype(bbox.dtype)


def utils_entries():
    rng = np.random.RandomState(7)
    e = {}
    for name, kwargs in {"default": {}, "custom": {"base_size": 8, "ratios": [0.25, 1, 3],
                                                   "anchor_scales": [1.5, 4]}}.items():
        args = {"base_size": 16, "ratios": [0.5, 1, 2], "anchor_scales": [8, 16, 32], **kwargs}
        for key, value in args.items():
            e[f"anchor_base/{name}/{key}"] = np.asarray(value, np.float64)
        e[f"anchor_base/{name}/out"] = frcnn.generate_anchor_base(**kwargs)

    src = random_boxes(rng, 20, 100, 120)
    dst = random_boxes(rng, 20, 100, 120)
    src_zero = src.copy()
    src_zero[3, 2] = src_zero[3, 0]
    for name, (s, d) in {"float32": (src, dst), "float64": (src.astype(np.float64), dst.astype(np.float64)),
                         "zero_height": (src_zero, dst)}.items():
        e[f"bbox2loc/{name}/src"], e[f"bbox2loc/{name}/dst"] = s, d
        e[f"bbox2loc/{name}/loc"] = frcnn.bbox2loc(s, d)

    loc = rng.normal(0, 0.5, (20, 4)).astype(np.float32)
    loc3 = rng.normal(0, 0.5, (20, 12)).astype(np.float32)
    for name, (s, l) in {"float32": (src, loc), "float64": (src.astype(np.float64), loc.astype(np.float64)),
                         "three": (src, loc3),
                         "empty": (np.zeros((0, 4), np.float32), np.zeros((0, 4), np.float32))}.items():
        e[f"loc2bbox/{name}/src"], e[f"loc2bbox/{name}/loc"] = s, l
        e[f"loc2bbox/{name}/bbox"] = frcnn.loc2bbox(s, l)

    # ProposalCreator on the anchors of an 8x10 feature map (stride 16, a 128x160 image)
    anchor = _enumerate_shifted_anchor(frcnn.generate_anchor_base(anchor_scales=[2, 4, 8]), 16, 8, 10)
    n_anchor = len(anchor)
    rpn_loc = rng.normal(0, 0.3, (n_anchor, 4)).astype(np.float32)
    rpn_score = rng.normal(0, 1, n_anchor).astype(np.float32)
    proposal_cases = {
        "test_default": ({}, False, 1.0),
        "train_default": ({}, True, 1.0),
        "test_limits": ({"n_test_pre_nms": 200, "n_test_post_nms": 30, "nms_thresh": 0.5, "min_size": 8}, False, 1.6),
        "train_limits": ({"n_train_pre_nms": 300, "n_train_post_nms": 40, "min_size": 24}, True, 0.8),
        "no_limits": ({"n_test_pre_nms": -1, "n_test_post_nms": -1}, False, 1.0),
    }
    e.update({"anchor": anchor, "img_size": np.array([128, 160]), "proposal/loc": rpn_loc,
              "proposal/score": rpn_score})
    for name, (params, train, scale) in proposal_cases.items():
        with chainer.using_config("train", train):
            roi = frcnn.ProposalCreator(**params)(rpn_loc, rpn_score, anchor, (128, 160), scale=scale)
        e.update({f"proposal/{name}/scale": np.float64(scale), f"proposal/{name}/params": json.dumps(params),
                  f"proposal/{name}/train": np.bool_(train), f"proposal/{name}/roi": roi})

    gt = np.array([[10, 20, 70, 90], [40, 60, 120, 150], [60, 5, 110, 50]], np.float32)
    anchor_cases = {
        "default": (gt, {}, 1),
        "small_sample": (gt, {"n_sample": 16, "pos_ratio": 0.25}, 2),
        "thresholds": (gt[:2], {"pos_iou_thresh": 0.4, "neg_iou_thresh": 0.1, "n_sample": 20}, 3),
        "one_box": (gt[1:2], {"n_sample": 8}, 4),
    }
    for name, (bbox, params, seed) in anchor_cases.items():
        np.random.seed(seed)
        loc_t, label_t = frcnn.AnchorTargetCreator(**params)(bbox, anchor, (128, 160))
        e.update({f"anchor_target/{name}/bbox": bbox,
                  f"anchor_target/{name}/params": json.dumps(params), f"anchor_target/{name}/seed": np.int64(seed),
                  f"anchor_target/{name}/loc": loc_t, f"anchor_target/{name}/label": label_t})

    roi = np.concatenate([jitter(rng, gt, 60, 8.0), random_boxes(rng, 60, 128, 160)])
    label = np.array([3, 0, 7], np.int32)
    e.update({"proposal_target/roi": roi, "proposal_target/bbox": gt, "proposal_target/label": label})
    target_cases = {
        "default": ({}, {}, 5),
        "small_sample": ({"n_sample": 16, "pos_ratio": 0.5}, {}, 6),
        "few_positives": ({"n_sample": 200, "pos_iou_thresh": 0.8, "neg_iou_thresh_lo": 0.1}, {}, 7),
        "normalization": ({}, {"loc_normalize_mean": (0.1, -0.2, 0.05, 0.0),
                               "loc_normalize_std": (0.2, 0.3, 0.1, 0.4)}, 8),
    }
    for name, (params, norm, seed) in target_cases.items():
        np.random.seed(seed)
        sample_roi, gt_roi_loc, gt_roi_label = frcnn.ProposalTargetCreator(**params)(roi, gt, label, **norm)
        e.update({f"proposal_target/{name}/params": json.dumps(params),
                  f"proposal_target/{name}/norm": json.dumps(norm),
                  f"proposal_target/{name}/seed": np.int64(seed),
                  f"proposal_target/{name}/sample_roi": sample_roi,
                  f"proposal_target/{name}/gt_roi_loc": gt_roi_loc,
                  f"proposal_target/{name}/gt_roi_label": gt_roi_label})
    return e


class Recording:
    """Wraps a target creator and keeps what it returned last."""

    def __init__(self, creator):
        self.creator = creator
        self.out = None

    def __call__(self, *args, **kwargs):
        self.out = self.creator(*args, **kwargs)
        return self.out


def boundary_distance(roi) -> float:
    """How close RoI coordinates come, in feature cells (stride 16), to a half, where RoI pooling's rounding
    flips: float32 noise in the proposals (about 1e-4 cells) must not reach it."""
    v = np.asarray(roi, np.float64) / 16
    return float(np.abs(v - np.floor(v) - 0.5).min())


def saved_keys(link) -> list:
    import io
    buffer = io.BytesIO()
    chainer.serializers.save_npz(buffer, link)
    with np.load(io.BytesIO(buffer.getvalue()), allow_pickle=True) as saved:
        return sorted(saved.files)


def vgg16_entries():
    zero = initializers.Zero()   # every weight is overwritten: skip the sampling
    model = frcnn.FasterRCNNVGG16(vgg_initialW=zero, rpn_initialW=zero, loc_initialW=zero, score_initialW=zero,
                                  **CONFIG)
    rng = np.random.RandomState(SEED)
    img = rng.randint(0, 256, (3, 96, 128)).astype(np.uint8)
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        model.extractor(np.zeros((1, 3, 32, 32), np.float32))   # the convolutions' deferred input sizes
    shapes = _common.fill_seeded(model, SEED)
    e = {"config": json.dumps(CONFIG), "seed": np.int64(SEED), "keys": json.dumps(saved_keys(model)),
         "shapes": json.dumps({k: list(v) for k, v in shapes.items()}, sort_keys=True),
         "mean": np.asarray(model.mean), "img": img}

    x = model.prepare(img.astype(np.float32))
    scale = x.shape[2] / img.shape[2]
    e.update({"prepared/shape": np.array(x.shape), "prepared/sub": x[:, ::8, ::8], "scale": np.float64(scale)})
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        h = model.extractor(x[None])
        rpn_locs, rpn_scores, rois, roi_indices, anchor = model.rpn(h, x.shape[1:], [scale])
        roi_cls_locs, roi_scores = model.head(h, rois, roi_indices)
    print(f"faster_rcnn: {len(rois)} RoIs, {len(rois) - len(np.unique(roi_scores.array, axis=0))} tied, "
          f"nearest rounding boundary {boundary_distance(rois):.4f} cells", flush=True)
    e.update({"forward/rpn_locs": rpn_locs.array, "forward/rpn_scores": rpn_scores.array, "forward/rois": rois,
              "forward/roi_indices": roi_indices, "forward/anchor": anchor,
              "forward/roi_cls_locs": roi_cls_locs.array, "forward/roi_scores": roi_scores.array})
    for preset in ("evaluate", "visualize"):
        model.use_preset(preset)
        (bbox,), (label,), (score,) = model.predict([img])
        print(f"faster_rcnn: predict ({preset}): {len(rois)} RoIs, {len(bbox)} boxes", flush=True)
        e.update({f"predict/{preset}/nms_thresh": np.float64(model.nms_thresh),
                  f"predict/{preset}/score_thresh": np.float64(model.score_thresh),
                  f"predict/{preset}/bbox": bbox, f"predict/{preset}/label": label,
                  f"predict/{preset}/score": score})

    img_train = rng.randint(0, 256, (3, 144, 192)).astype(np.uint8)
    # no coordinate at an odd multiple of 8: RoI pooling rounds those halves differently on Chainer's CPU
    # (to even) and in kusari (away from zero, as Chainer's GPU kernel)
    bboxes = np.array([[[10, 20, 100, 150], [41, 60, 140, 190], [5, 5, 60, 70]]], np.float32)
    labels = np.array([[3, 7, 15]], np.int32)
    scales = np.array([1.25], np.float32)
    train_seed = 11
    anchor_target = Recording(frcnn.AnchorTargetCreator())
    proposal_target = Recording(frcnn.ProposalTargetCreator())
    chain = frcnn.FasterRCNNTrainChain(model, anchor_target_creator=anchor_target,
                                       proposal_target_creator=proposal_target)
    x_train = (img_train.astype(np.float32) - model.mean)[None]
    np.random.seed(train_seed)
    observation = {}
    reporter = chainer.Reporter()
    reporter.add_observer("main", chain)
    with chainer.using_config("train", True), reporter.scope(observation):
        loss = chain(x_train, bboxes, labels, scales)
    model.cleargrads()
    loss.backward()
    e.update({"train/img": img_train, "train/bboxes": bboxes, "train/labels": labels, "train/scales": scales,
              "train/seed": np.int64(train_seed), "train/gt_roi_label": proposal_target.out[2],
              "train/gt_rpn_label": anchor_target.out[1]})
    for name in ("rpn_loc_loss", "rpn_cls_loss", "roi_loc_loss", "roi_cls_loss", "loss"):
        e[f"train/{name}"] = np.asarray(observation[f"main/{name}"].array)
    losses = [round(float(e[f"train/{n}"]), 4) for n in ("rpn_loc_loss", "rpn_cls_loss", "roi_loc_loss", "roi_cls_loss")]
    print(f"faster_rcnn: train losses {losses}, "
          f"{int((proposal_target.out[2] > 0).sum())} foreground RoIs, {int((anchor_target.out[1] == 1).sum())} "
          f"positive anchors, nearest rounding boundary {boundary_distance(proposal_target.out[0]):.4f} cells",
          flush=True)
    for path, param in sorted(model.namedparams()):   # Chainer's order follows string hashing
        key = path.lstrip("/")
        grad = param.grad
        e[f"train/grad_sq/{key}"] = np.float64(np.sum(np.square(grad.astype(np.float64))))
        if key in GRAD_KEYS:
            e[f"train/grad/{key}"] = grad
    return e


def pretrained_table():
    return [{"name": name, "url": model["url"], "param": model["param"], "cv2": model.get("cv2", False)}
            for name, model in sorted(frcnn.FasterRCNNVGG16._models.items())]


def main(out_root):
    out_dir = os.path.join(out_root, "faster_rcnn")
    os.makedirs(out_dir, exist_ok=True)
    _common.save_npz(os.path.join(out_dir, "utils.npz"), utils_entries())
    _common.save_npz(os.path.join(out_dir, "pretrained_models.npz"), {"table": json.dumps(pretrained_table())})
    _common.save_npz(os.path.join(out_dir, "vgg16.npz"), vgg16_entries())


if __name__ == "__main__":
    main(sys.argv[1])
