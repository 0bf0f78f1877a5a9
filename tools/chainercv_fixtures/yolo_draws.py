"""ChainerCV's YOLOv2Tiny, YOLOv2 and YOLOv3 on their own initializers, with the 'evaluate' preset: what
kusari.vision's must reproduce, detection for detection.

Writes ``OUTDIR/yolo_draws/<model>.npz`` for each model of ``MODELS`` (``n_fg_class`` 3), one group of
entries per seed of ``SEEDS``, under ``<seed>/``:

- ``img_sum/<i>``: the float64 sums of the two images given to ``predict``,
  ``seeded_weights.seeded_uniform(seed + i, IMAGE_SHAPES[i], 0, 256)`` floored: a small one that YOLO pads
  with grey (so that whole rows of cells see the same pixels and their scores tie exactly) and a larger one
  that it shrinks;
- ``raw_index`` and ``locs``, ``objs``, ``confs``: the head outputs of that ``predict``'s forward at every
  ``len // ROWS``-th anchor box;
- ``bbox/<i>``, ``label/<i>``, ``score/<i>``: ``predict``'s results, ChainerCV's NMS visiting exactly
  tied scores in kusari's documented order (descending index: ``argsort(kind='stable')[::-1]``);
- ``score_thresh``: what ``predict`` ran with, the 'evaluate' preset's (0.005) except for YOLOv3
  (``SCORE_THRESH``), and ``score_margin/<i>``: the least distance of any anchor's score to it, so that
  no detection passes or fails the threshold by a rounding;
- ``default_count/<i>``: the number of detections of ChainerCV's own ``predict``, whose NMS visits exact
  ties in the order of NumPy 1.23's unstable introsort (an order NumPy does not specify, and that other
  NumPy versions change): recorded, not compared.

YOLOv3 runs one seed, and on its initializers about 15000 detections per image pass the 'evaluate'
threshold (every score is near 0.25): a threshold of 0.3 keeps a few hundred, so that the fixture stays
small (``SCORE_THRESH``).

Weights: ``numpy.random.seed(seed)``, then the constructor and a first forward draw them with ChainerCV's
initializers (kusari's draw the same numbers in the same order), so nothing is stored.
"""
import os
import sys

import numpy as np

import _common
import seeded_weights
from chainercv import utils
from chainercv.experimental.links import YOLOv2Tiny
from chainercv.links import YOLOv2, YOLOv3
import chainercv.links.model.yolo.yolo_v2 as yolo_v2_module
import chainercv.links.model.yolo.yolo_v3 as yolo_v3_module

N_FG_CLASS = 3
ROWS = 256
SEEDS = {"yolo_v2_tiny": (0, 1), "yolo_v2": (0, 1), "yolo_v3": (1,)}
SCORE_THRESH = {"yolo_v3": 0.3}
IMAGE_SHAPES = ((3, 64, 80), (3, 600, 450))
MODELS = {"yolo_v2_tiny": YOLOv2Tiny, "yolo_v2": YOLOv2, "yolo_v3": YOLOv3}


class _StableArgsort(np.ndarray):
    """A score array whose ``argsort()`` is stable: ChainerCV's NMS then visits exact ties in a defined order."""

    def argsort(self, *args, **kwargs):
        return np.asarray(self).argsort(kind="stable")


def _nms_stable_ties(bbox, thresh, score=None, limit=None):
    if score is not None:
        score = np.asarray(score).view(_StableArgsort)
    return _NMS(bbox, thresh, score, limit)


_NMS = utils.non_maximum_suppression


def images(seed: int) -> list:
    return [np.floor(seeded_weights.seeded_uniform(seed + i, shape, 0, 256))
            for i, shape in enumerate(IMAGE_SHAPES)]


def run(model, imgs, stable: bool):
    """``model.predict(imgs)`` with ChainerCV's NMS or the stable-tie one, and the head outputs."""
    outputs = []
    forward = model.forward

    def spy(x):
        outputs.append(forward(x))
        return outputs[-1]

    model.forward = spy
    nms = _nms_stable_ties if stable else _NMS
    yolo_v2_module.utils.non_maximum_suppression = yolo_v3_module.utils.non_maximum_suppression = nms
    try:
        result = model.predict(imgs)
    finally:
        yolo_v2_module.utils.non_maximum_suppression = yolo_v3_module.utils.non_maximum_suppression = _NMS
        del model.forward
    return result, outputs[0]


def write_model(out_dir: str, name: str, cls) -> None:
    entries = {}
    for seed in SEEDS[name]:
        np.random.seed(seed)
        model = cls(n_fg_class=N_FG_CLASS)
        model.use_preset("evaluate")
        model.score_thresh = SCORE_THRESH.get(name, model.score_thresh)
        imgs = images(seed)
        (bboxes, labels, scores), raw = run(model, imgs, stable=True)
        default_bboxes, _, _ = run(model, imgs, stable=False)[0]
        n_box = raw[0].shape[1]
        index = np.arange(0, n_box, max(1, n_box // ROWS))
        entries[f"{seed}/raw_index"] = index
        entries[f"{seed}/score_thresh"] = np.float64(model.score_thresh)
        objs, confs = raw[1].array, raw[2].array
        if name == "yolo_v3":
            scores_all = 1 / (1 + np.exp(-objs[..., None])) / (1 + np.exp(-confs))
        else:
            scores_all = np.exp(confs) / np.exp(confs).sum(axis=2, keepdims=True) / (1 + np.exp(-objs[..., None]))
        margins = np.abs(scores_all - model.score_thresh).reshape(len(imgs), -1).min(axis=1)
        assert (margins > 1e-6).all(), f"{name} seed {seed}: a score within {margins.min()} of the threshold"
        for raw_name, array in zip(("locs", "objs", "confs"), raw):
            entries[f"{seed}/{raw_name}"] = array.array[:, index]
        for i, img in enumerate(imgs):
            entries[f"{seed}/img_sum/{i}"] = np.float64(img.astype(np.float64).sum())
            entries[f"{seed}/bbox/{i}"] = bboxes[i]
            entries[f"{seed}/label/{i}"] = labels[i]
            entries[f"{seed}/score/{i}"] = scores[i]
            entries[f"{seed}/default_count/{i}"] = np.int64(len(default_bboxes[i]))
            entries[f"{seed}/score_margin/{i}"] = np.float64(margins[i])
        print(f"yolo_draws: {name} seed {seed}: {[len(b) for b in bboxes]} detections "
              f"({[len(b) for b in default_bboxes]} with NumPy's unstable tie order)", flush=True)
    _common.save_npz(os.path.join(out_dir, f"{name}.npz"), entries)


def main(out_root: str) -> None:
    out_dir = os.path.join(out_root, "yolo_draws")
    os.makedirs(out_dir, exist_ok=True)
    for name, cls in MODELS.items():
        write_model(out_dir, name, cls)


if __name__ == "__main__":
    main(sys.argv[1])
