"""ChainerCV's single-shot detectors (SSD300, SSD512, YOLOv2, YOLOv2Tiny, YOLOv3), SSD's box coder, loss and
transforms, on seeded weights and seeded inputs: what kusari.vision's must reproduce.

Writes under ``OUTDIR/ssd_yolo/``:

- ``<model>.npz`` for each model of ``MODELS`` (``ssd300``, ``ssd512``, ``yolo_v2``, ``yolo_v2_tiny``,
  ``yolo_v3``; ``n_fg_class`` 3): ``config`` (JSON: class, n_fg_class, insize, mean, the (nms_thresh,
  score_thresh) of both presets), ``seed``, ``keys`` (JSON: every key ``save_npz`` writes), ``shapes``
  (JSON ``{key: shape}`` of the float arrays, filled by ``_common.fill_seeded``), ``scaled`` (JSON ``{key:
  factor}``: arrays multiplied by ``factor`` after the fill, see ``SCALED``), ``img_seed/<i>``,
  ``img_shape/<i>`` and ``img_sum/<i>`` (two uint8 noise images, ``seeded_image(seed, shape)``, given to
  ``predict`` as float32: 40x56, which YOLO pads, and 480x360, which it shrinks), ``nms_thresh`` and
  ``score_thresh`` (what ``predict`` ran with: the score threshold chosen so that about ``TARGET_BOXES``
  boxes per class and image pass it on these random weights, 1e-4 away from every score),
  ``bbox/<i>``, ``label/<i>``, ``score/<i>`` (``predict``'s results), and the raw head outputs of that
  ``predict`` call's forward (``mb_locs`` and ``mb_confs`` for SSD, ``locs``, ``objs`` and ``confs`` for
  YOLO), at the default-box rows ``raw_index`` only (every ``len // ROWS``-th, to stay small).
- ``coder.npz``: a small ``MultiboxCoder`` (``CODER``): ``encode/<case>/{bbox,label,mb_loc,mb_label}``
  (``iou_thresh`` in the case's name; an empty case) and ``decode/<case>/{mb_loc,mb_conf,bbox,label,score}``
  with the case's ``nms_thresh`` (None too) and ``score_thresh``; the SSD300 coder's decode of one
  ``predict`` input is in ``ssd300.npz`` through ``predict``.
- ``loss.npz``: ``multibox_loss`` on seeded ``mb_locs``, ``mb_confs``, ``gt_mb_locs``, ``gt_mb_labels``
  for several ``k`` (``<case>/...``, with ``loc_loss``, ``conf_loss`` and the gradients of their sum with
  respect to ``mb_locs`` and ``mb_confs``), including a case without positives.
- ``transforms.npz``: ``random_crop_with_bbox_constraints`` (``crop/<case>/``: seed, inputs, the returned
  param's constraint and slices), ``random_distort`` (``distort/<seed>/out``) and
  ``resize_with_random_interpolation`` (``resize/<case>/out`` and ``interpolation``); each call after
  ``random.seed(seed)`` and ``numpy.random.seed(seed)``.
- ``pretrained_models.npz``: ``table`` (JSON list): every ``pretrained_model=`` name each class accepts,
  with its URL, ``param`` and ``cv2`` flag.
"""
import io
import json
import os
import random
import sys

import numpy as np

import _common
import chainer
from chainercv.experimental.links import YOLOv2Tiny
from chainercv.links import SSD300, SSD512, YOLOv2, YOLOv3
from chainercv.links.model.ssd import (MultiboxCoder, multibox_loss, random_crop_with_bbox_constraints,
                                       random_distort, resize_with_random_interpolation)

N_FG_CLASS = 3
ROWS = 512          # raw head-output rows stored per model (about)
TARGET_BOXES = 40   # the score threshold is lowered until about this many boxes per image pass it
MODELS = {"ssd300": SSD300, "ssd512": SSD512, "yolo_v2": YOLOv2, "yolo_v2_tiny": YOLOv2Tiny, "yolo_v3": YOLOv3}
# weights multiplied by a factor after the seeded fill: Darknet-53's 23 residual additions leave YOLOv3's
# heads with logits up to about 25 on seeded weights (boxes millions of pixels high, every score near 1);
# a tenth of the last convolutions' weights brings them to the range of trained models
SCALED = {"yolo_v3": {f"subnet/{i}/1/W": 0.1 for i in range(3)}}
# the images given to predict: a small one (YOLO pads it), a large one (YOLO shrinks it), both resized by SSD
IMAGE_SHAPES = ((3, 40, 56), (3, 480, 360))
CODER = {"grids": (4, 2, 1), "aspect_ratios": ((2,), (2, 3), (2,)), "steps": (8, 16, 32),
         "sizes": (6, 14, 22, 30), "variance": (0.1, 0.2)}


def seed_of(name: str) -> int:
    return sum(map(ord, name))


def saved_keys(link) -> list:
    buffer = io.BytesIO()
    chainer.serializers.save_npz(buffer, link)
    with np.load(io.BytesIO(buffer.getvalue()), allow_pickle=True) as saved:
        return sorted(saved.files)


def presets(model) -> dict:
    out = {}
    for preset in ("visualize", "evaluate"):
        model.use_preset(preset)
        out[preset] = [model.nms_thresh, model.score_thresh]
    return out


class CachedForward:
    """Stands for ``model.forward``: the first call runs it, later calls return the same outputs (the
    input batch does not change between the ``predict`` calls)."""

    def __init__(self, forward):
        self.forward, self.outputs = forward, None

    def __call__(self, x):
        if self.outputs is None:
            self.outputs = self.forward(x)
        return self.outputs


def scores_of(name, model, outputs) -> np.ndarray:
    """Every class score of every default box, as the model's decoder computes it."""
    if name.startswith("ssd"):
        _, mb_confs = (o.array for o in outputs)
        score = np.exp(mb_confs)
        score /= score.sum(axis=2, keepdims=True)
        return score[:, :, 1:]
    _, objs, confs = (o.array for o in outputs)
    obj = 1 / (1 + np.exp(-objs))
    if name == "yolo_v3":
        conf = 1 / (1 + np.exp(-confs))
    else:
        conf = np.exp(confs)
        conf /= conf.sum(axis=2, keepdims=True)
    return obj[:, :, None] * conf


def pick_threshold(scores: np.ndarray) -> float:
    """A score threshold that about TARGET_BOXES * n_fg_class scores of each image pass, kept 1e-4 away
    from every score (so that rounding cannot move a box across it)."""
    flat = np.sort(scores.reshape(len(scores), -1), axis=1)[:, ::-1]
    t = round(float(flat[:, TARGET_BOXES * scores.shape[2]].min()), 3)
    while np.any(np.abs(scores - t) < 1e-4 * t):
        t += 0.001
    return t


def seeded_image(seed: int, shape) -> np.ndarray:
    """A uint8 noise image (the test draws the same from ``seed`` and ``shape``)."""
    return np.random.RandomState(seed).randint(0, 256, shape).astype(np.uint8)


def write_model(out_dir, name, cls):
    seed = seed_of(name)
    model = cls(n_fg_class=N_FG_CLASS)
    config = {"class": cls.__name__, "n_fg_class": N_FG_CLASS, "insize": model.insize, "presets": presets(model)}
    if name.startswith("ssd"):
        config["mean"] = np.asarray(model.mean).ravel().tolist()
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        model.forward(np.zeros((1, 3, model.insize, model.insize), np.float32))  # deferred input sizes
    shapes = _common.fill_seeded(model, seed)
    scaled = SCALED.get(name, {})
    params = dict(model.namedparams())
    for key, factor in scaled.items():
        params["/" + key].array *= factor
    imgs = [seeded_image(seed + i, shape) for i, shape in enumerate(IMAGE_SHAPES)]
    cached = CachedForward(model.forward)
    model.forward = cached
    model.use_preset("evaluate")
    model.predict([img.astype(np.float32) for img in imgs])
    model.nms_thresh = 0.45
    model.score_thresh = pick_threshold(scores_of(name, model, cached.outputs))
    bboxes, labels, scores = model.predict([img.astype(np.float32) for img in imgs])
    raw_names = ("mb_locs", "mb_confs") if name.startswith("ssd") else ("locs", "objs", "confs")
    n_row = cached.outputs[0].shape[1]
    raw_index = np.arange(0, n_row, max(1, n_row // ROWS))
    entries = {"config": json.dumps(config), "seed": np.int64(seed), "keys": json.dumps(saved_keys(model)),
               "shapes": json.dumps({k: list(v) for k, v in shapes.items()}, sort_keys=True),
               "scaled": json.dumps(scaled, sort_keys=True), "nms_thresh": np.float64(model.nms_thresh),
               "score_thresh": np.float64(model.score_thresh),
               "raw_index": raw_index}
    for raw_name, raw in zip(raw_names, cached.outputs):
        entries[raw_name] = raw.array[:, raw_index]
    for i, (img, bbox, label, score) in enumerate(zip(imgs, bboxes, labels, scores)):
        entries.update({f"img_seed/{i}": np.int64(seed + i), f"img_shape/{i}": np.array(img.shape),
                        f"img_sum/{i}": np.int64(img.sum()), f"bbox/{i}": bbox, f"label/{i}": label,
                        f"score/{i}": score})
        print(f"ssd_yolo: {name} image {i}: {len(bbox)} boxes at score_thresh {model.score_thresh}", flush=True)
    _common.save_npz(os.path.join(out_dir, f"{name}.npz"), entries)


def random_bbox(rng, n, size):
    """``n`` boxes inside a ``size`` x ``size`` square, each at least 2 pixels high and wide."""
    y0, x0 = rng.uniform(0, size - 4, (2, n))
    h, w = rng.uniform(2, size / 2, (2, n))
    return np.stack((y0, x0, np.minimum(y0 + h, size), np.minimum(x0 + w, size)), axis=1).astype(np.float32)


def write_coder(out_dir):
    coder = MultiboxCoder(**CODER)
    n_bbox = len(coder._default_bbox)
    rng = np.random.RandomState(seed_of("coder"))
    entries = {"config": json.dumps(CODER), "n_bbox": np.int64(n_bbox)}
    encode_cases = {
        "five_iou0.5": (random_bbox(rng, 5, 32), rng.randint(0, 4, 5).astype(np.int32), 0.5),
        "five_iou0.3": (random_bbox(rng, 5, 32), rng.randint(0, 4, 5).astype(np.int32), 0.3),
        "one_large_iou0.5": (np.array([[2, 3, 30, 29]], np.float32), np.array([2], np.int32), 0.5),
        "twelve_iou0.5": (random_bbox(rng, 12, 32), rng.randint(0, 4, 12).astype(np.int32), 0.5),
        "empty": (np.zeros((0, 4), np.float32), np.zeros((0,), np.int32), 0.5),
    }
    for case, (bbox, label, iou_thresh) in encode_cases.items():
        mb_loc, mb_label = coder.encode(bbox, label, iou_thresh)
        entries.update({f"encode/{case}/bbox": bbox, f"encode/{case}/label": label,
                        f"encode/{case}/iou_thresh": np.float64(iou_thresh),
                        f"encode/{case}/mb_loc": mb_loc, f"encode/{case}/mb_label": mb_label})
    decode_cases = {"nms0.45_score0.3": (0.45, 0.3), "nms_none_score0.4": (None, 0.4),
                    "nms0.2_score0": (0.2, 0.0), "score_inf": (0.45, np.inf)}
    for case, (nms_thresh, score_thresh) in decode_cases.items():
        mb_loc = rng.uniform(-1, 1, (n_bbox, 4)).astype(np.float32)
        mb_conf = rng.uniform(-2, 2, (n_bbox, 4)).astype(np.float32)
        bbox, label, score = coder.decode(mb_loc, mb_conf, nms_thresh, score_thresh)
        entries.update({f"decode/{case}/mb_loc": mb_loc, f"decode/{case}/mb_conf": mb_conf,
                        f"decode/{case}/nms_thresh": np.float64(np.nan if nms_thresh is None else nms_thresh),
                        f"decode/{case}/score_thresh": np.float64(score_thresh),
                        f"decode/{case}/bbox": bbox, f"decode/{case}/label": label, f"decode/{case}/score": score})
    _common.save_npz(os.path.join(out_dir, "coder.npz"), entries)


def write_loss(out_dir):
    rng = np.random.RandomState(seed_of("loss"))
    B, K, n_class = 2, 40, 4
    entries = {}
    cases = {"k3": 3, "k1": 1, "k0.5": 0.5, "k100": 100, "no_positive": 3}
    for case, k in cases.items():
        mb_locs = rng.standard_normal((B, K, 4)).astype(np.float32)
        mb_confs = rng.standard_normal((B, K, n_class)).astype(np.float32)
        gt_mb_locs = rng.standard_normal((B, K, 4)).astype(np.float32)
        gt_mb_labels = np.where(rng.uniform(size=(B, K)) < 0.2, rng.randint(1, n_class, (B, K)), 0)
        gt_mb_labels = gt_mb_labels.astype(np.int32)
        if case == "no_positive":
            gt_mb_labels[:] = 0
        locs, confs = chainer.Variable(mb_locs), chainer.Variable(mb_confs)
        loc_loss, conf_loss = multibox_loss(locs, confs, gt_mb_locs, gt_mb_labels, k)
        entries.update({f"{case}/mb_locs": mb_locs, f"{case}/mb_confs": mb_confs, f"{case}/gt_mb_locs": gt_mb_locs,
                        f"{case}/gt_mb_labels": gt_mb_labels, f"{case}/k": np.float64(k),
                        f"{case}/loc_loss": loc_loss.array, f"{case}/conf_loss": conf_loss.array})
        if case != "no_positive":
            (loc_loss + conf_loss).backward()
            entries.update({f"{case}/grad_mb_locs": locs.grad, f"{case}/grad_mb_confs": confs.grad})
    _common.save_npz(os.path.join(out_dir, "loss.npz"), entries)


def seeded(seed):
    random.seed(seed)
    np.random.seed(seed)


def write_transforms(out_dir):
    rng = np.random.RandomState(seed_of("transforms"))
    entries = {}
    img = rng.uniform(0, 255, (3, 30, 40)).astype(np.float32)
    entries["crop/img_shape"] = np.array(img.shape)
    bbox = np.array([[3, 4, 20, 25], [10, 12, 28, 38], [0, 0, 8, 6]], np.float32)
    crop_cases = {f"default_{seed}": (seed, bbox, {}) for seed in range(8)}
    crop_cases.update({f"constraints_{seed}": (seed, bbox[:1], {"constraints": ((0.5, None), (None, 0.3)),
                                                                "min_scale": 0.5, "max_aspect_ratio": 3,
                                                                "max_trial": 10}) for seed in range(4)})
    crop_cases["empty_bbox"] = (3, np.zeros((0, 4), np.float32), {})
    for case, (seed, case_bbox, kwargs) in crop_cases.items():
        seeded(seed)
        out, param = random_crop_with_bbox_constraints(img, case_bbox, return_param=True, **kwargs)
        assert np.array_equal(out, img[:, param["y_slice"], param["x_slice"]])
        constraint = param["constraint"]
        entries.update({
            f"crop/{case}/seed": np.int64(seed), f"crop/{case}/bbox": case_bbox,
            f"crop/{case}/kwargs": json.dumps(kwargs),
            f"crop/{case}/constraint": np.array([np.nan, np.nan] if constraint is None else constraint, np.float64),
            f"crop/{case}/slices": np.array([param["y_slice"].start, param["y_slice"].stop,
                                             param["x_slice"].start, param["x_slice"].stop], np.int64)})
    distort_img = rng.uniform(0, 255, (3, 12, 16)).astype(np.float32)
    entries["distort/img"] = distort_img
    for seed in range(12):
        seeded(seed)
        entries[f"distort/{seed}/out"] = random_distort(distort_img)
    seeded(100)
    entries["distort/kwargs/out"] = random_distort(distort_img, brightness_delta=50, contrast_low=0.2,
                                                   contrast_high=2.5, saturation_low=0.1, saturation_high=3,
                                                   hue_delta=60)
    resize_imgs = {"rgb": rng.uniform(0, 255, (3, 12, 16)).astype(np.float32),
                   "gray": rng.uniform(0, 255, (1, 12, 16)).astype(np.float32)}
    for name, resize_img in resize_imgs.items():
        entries[f"resize/{name}/img"] = resize_img
        for seed in range(8):
            seeded(seed)
            out, param = resize_with_random_interpolation(resize_img, (20, 14), return_param=True)
            entries[f"resize/{name}/{seed}/out"] = out
            entries[f"resize/{name}/{seed}/interpolation"] = np.int64(param["interpolation"])
    _common.save_npz(os.path.join(out_dir, "transforms.npz"), entries)


def pretrained_table():
    rows = []
    for cls in MODELS.values():
        for name, model in sorted(cls._models.items()):
            rows.append({"class": cls.__name__, "name": name, "url": model["url"], "param": model.get("param", {}),
                         "overwritable": sorted(model.get("overwritable", ())), "cv2": model.get("cv2", False)})
    return rows


def main(out_root):
    out_dir = os.path.join(out_root, "ssd_yolo")
    os.makedirs(out_dir, exist_ok=True)
    write_coder(out_dir)
    write_loss(out_dir)
    write_transforms(out_dir)
    _common.save_npz(os.path.join(out_dir, "pretrained_models.npz"), {"table": json.dumps(pretrained_table())})
    only = sys.argv[2:]
    for name, cls in MODELS.items():
        if only and name not in only:
            continue
        print(f"ssd_yolo: {name}", flush=True)
        write_model(out_dir, name, cls)


if __name__ == "__main__":
    main(sys.argv[1])
