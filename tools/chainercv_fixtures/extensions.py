"""What ChainerCV 0.13.1's evaluator extensions report for a stub link whose ``predict`` returns stored
predictions, over a SerialIterator (batch size 3, no repeat, no shuffle) of blank 3x4x5 images.

Writes ``OUTDIR/extensions.npz``: the per-image inputs (``det/``, ``seg/``, ``ins/`` as per-image lists
``<key>/<i>`` with ``<key>/n``) and for each ``<case>`` the reported ``keys`` (strings, sorted) and
``values`` (float64) of ``evaluator()``:

- ``det_voc``, ``det_voc_difficult_07`` (samples with difficult flags, use_07_metric), both with
  ``label_names`` longer than the classes seen; ``det_voc_plain`` (no label_names);
- ``det_coco`` (samples with areas and crowd flags, label_names), ``det_coco_plain``;
- ``semseg`` (label_names), ``ins_voc`` (label_names, iou_thresh 0.4), ``ins_coco`` (label_names).
"""
import sys

import numpy as np

import chainer
from chainer.datasets import TupleDataset
from chainer.iterators import SerialIterator
from chainercv import extensions

from _common import save_npz

NAMES = ("a", "b", "c", "d", "e", "f")


class StubLink(chainer.Link):
    """predict() returns the stored outputs of the next len(imgs) images."""

    def __init__(self, *outputs):
        super().__init__()
        self.outputs = outputs
        self.count = 0

    def predict(self, imgs):
        start, self.count = self.count, self.count + len(imgs)
        values = tuple(list(o[start:self.count]) for o in self.outputs)
        return values if len(values) > 1 else values[0]


def boxes(rng, n):
    top_left = rng.uniform(0, 40, (n, 2))
    return np.concatenate([top_left, top_left + rng.uniform(5, 40, (n, 2))], axis=1).astype(np.float32)


def perturb(rng, bbox):
    out = bbox + rng.normal(0, 2, bbox.shape)
    out[:, 2:] = np.maximum(out[:, 2:], out[:, :2] + 1)     # still a box: ends after starts
    return out.astype(np.float32)


def put_list(e, key, arrays):
    e[f"{key}/n"] = np.int64(len(arrays))
    for i, a in enumerate(arrays):
        e[f"{key}/{i}"] = np.asarray(a)


def report(e, case, extension):
    result = extension()
    keys = sorted(result)
    e[f"{case}/keys"] = np.array(keys, dtype=str)
    e[f"{case}/values"] = np.array([float(result[k]) for k in keys], np.float64)


def main(outdir):
    rng = np.random.RandomState(4)
    e = {}
    n = 7
    imgs = np.zeros((n, 3, 4, 5), np.float32)

    gt_bbox = [boxes(rng, rng.randint(1, 4)) for _ in range(n)]
    gt_label = [rng.randint(0, 3, len(b)).astype(np.int32) for b in gt_bbox]
    difficult = [rng.uniform(size=len(b)) < 0.3 for b in gt_bbox]
    area = [((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])).astype(np.float32) for b in gt_bbox]
    crowded = [np.zeros(len(b), bool) for b in gt_bbox]
    pred_bbox = [np.concatenate([perturb(rng, b), boxes(rng, 1)]) for b in gt_bbox]
    pred_label = [np.concatenate([l, rng.randint(0, 4, 1)]).astype(np.int32) for l in gt_label]
    scores = rng.permutation(100)[:sum(len(p) for p in pred_bbox)].astype(np.float32) / 100
    pred_score = np.split(scores, np.cumsum([len(p) for p in pred_bbox])[:-1])
    for key, value in (("gt_bbox", gt_bbox), ("gt_label", gt_label), ("gt_difficult", difficult), ("gt_area", area),
                       ("gt_crowded", crowded), ("pred_bbox", pred_bbox), ("pred_label", pred_label),
                       ("pred_score", pred_score)):
        put_list(e, f"det/{key}", value)

    def iterator(*columns):
        return SerialIterator(TupleDataset(imgs, *columns), 3, repeat=False, shuffle=False)

    def stub():
        return StubLink(pred_bbox, pred_label, pred_score)

    report(e, "det_voc", extensions.DetectionVOCEvaluator(iterator(gt_bbox, gt_label), stub(), label_names=NAMES))
    report(e, "det_voc_difficult_07", extensions.DetectionVOCEvaluator(
        iterator(gt_bbox, gt_label, difficult), stub(), use_07_metric=True, label_names=NAMES))
    report(e, "det_voc_plain", extensions.DetectionVOCEvaluator(iterator(gt_bbox, gt_label), stub()))
    report(e, "det_coco", extensions.DetectionCOCOEvaluator(
        iterator(gt_bbox, gt_label, area, crowded), stub(), label_names=NAMES[:4]))
    report(e, "det_coco_plain", extensions.DetectionCOCOEvaluator(iterator(gt_bbox, gt_label), stub()))

    gt_seg = rng.randint(-1, 3, (n, 4, 5)).astype(np.int32)
    pred_seg = np.where(rng.uniform(size=gt_seg.shape) < 0.7, np.maximum(gt_seg, 0),
                        rng.randint(0, 3, gt_seg.shape)).astype(np.int32)
    put_list(e, "seg/gt_label", gt_seg)
    put_list(e, "seg/pred_label", pred_seg)
    report(e, "semseg", extensions.SemanticSegmentationEvaluator(
        iterator(gt_seg), StubLink(pred_seg), label_names=NAMES[:4]))

    gt_mask = [rng.uniform(size=(rng.randint(1, 3), 4, 5)) < 0.5 for _ in range(n)]
    gt_mask_label = [rng.randint(0, 2, len(m)).astype(np.int32) for m in gt_mask]
    pred_mask = [np.concatenate([m ^ (rng.uniform(size=m.shape) < 0.1), rng.uniform(size=(1, 4, 5)) < 0.5])
                 for m in gt_mask]
    pred_mask_label = [np.concatenate([l, [0]]).astype(np.int32) for l in gt_mask_label]
    scores = rng.permutation(100)[:sum(len(m) for m in pred_mask)].astype(np.float32) / 100
    pred_mask_score = np.split(scores, np.cumsum([len(m) for m in pred_mask])[:-1])
    mask_area = [m.sum(axis=(1, 2)).astype(np.float32) for m in gt_mask]
    mask_crowded = [np.zeros(len(m), bool) for m in gt_mask]
    for key, value in (("gt_mask", gt_mask), ("gt_label", gt_mask_label), ("gt_area", mask_area),
                       ("gt_crowded", mask_crowded), ("pred_mask", pred_mask), ("pred_label", pred_mask_label),
                       ("pred_score", pred_mask_score)):
        put_list(e, f"ins/{key}", value)
    report(e, "ins_voc", extensions.InstanceSegmentationVOCEvaluator(
        iterator(gt_mask, gt_mask_label), StubLink(pred_mask, pred_mask_label, pred_mask_score), iou_thresh=0.4,
        label_names=NAMES[:3]))
    report(e, "ins_coco", extensions.InstanceSegmentationCOCOEvaluator(
        iterator(gt_mask, gt_mask_label, mask_area, mask_crowded),
        StubLink(pred_mask, pred_mask_label, pred_mask_score), label_names=NAMES[:2]))
    save_npz(f"{outdir}/extensions.npz", e)


if __name__ == "__main__":
    main(sys.argv[1])
