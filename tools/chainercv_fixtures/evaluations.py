"""ChainerCV 0.13.1's evaluations (with pycocotools 2.0.7) on seeded random detections and segmentations,
and VOC detection AP on the real raccoon annotations.

Writes ``OUTDIR/evaluations.npz``. Per-image lists are stored as ``<name>/<i>`` entries with ``<name>/n``
the number of images; lists over classes holding None as ``<name>/<l>`` entries with ``<name>/none``
the classes that were None.

- ``det_voc/``: 10 images, classes 0-4 (4 only predicted, 3 partly difficult), inputs ``pred_bbox``,
  ``pred_label``, ``pred_score``, ``gt_bbox``, ``gt_label``, ``gt_difficult`` and for
  ``<case>`` in ``t50`` / ``t75`` (iou_thresh 0.5 / 0.75) / ``t50_nodifficult``: ``prec``, ``rec``,
  ``ap``, ``ap07`` (use_07_metric), ``map``, ``map07``;
- ``det_coco/``: 8 images of boxes of all COCO sizes with ``gt_area`` and ``gt_crowded`` and, for
  ``<case>`` in ``areas`` (areas and crowd flags given) / ``plain`` (neither): every result key
  except ``coco_eval`` (``existent_labels`` as an array);
- ``semseg/``: 3 label maps of different sizes with ignored pixels: ``confusion``, ``iou``,
  ``miou``, ``pixel_accuracy``, ``class_accuracy``, ``mean_class_accuracy``;
- ``ins_voc/``: 4 images of 16x18 masks: ``t50/{prec,rec,ap,ap07,map,map07}``;
- ``ins_coco/``: the same masks with ``gt_area``/``gt_crowded``; ``areas`` and ``plain`` as det_coco;
- ``raccoon/``: the 40 test images of ``/work/shared/data/raccoon`` (``files``: their annotation
  file names, read here as (ymin, xmin, ymax, xmax) float32 straight from the XML), perturbed
  predictions ``pred_bbox`` / ``pred_score`` (``pred_label`` all 0), ``difficult`` flags marking the
  smaller half of the boxes, and ``ap``, ``ap07`` with the XML's own difficult flags (none) and
  ``ap_difficult``, ``ap07_difficult`` with the marked ones.
"""
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np

from chainercv import evaluations

from _common import save_npz

RACCOON = "/work/shared/data/raccoon"


def boxes(rng, n, extent, low, high):
    top_left = rng.uniform(0, extent, (n, 2))
    size = rng.uniform(low, high, (n, 2))
    return np.concatenate([top_left, top_left + size], axis=1).astype(np.float32)


def perturb(rng, bbox, sigma):
    out = bbox + rng.normal(0, sigma, bbox.shape)
    out[:, 2:] = np.maximum(out[:, 2:], out[:, :2] + 1)
    return out.astype(np.float32)


def detections(rng, n_images, extent, low, high, sigma, n_class):
    """Per image: gt boxes, labels in [0, n_class - 1), predictions = perturbed / relabelled gt plus
    false positives (some of class n_class - 1, never in the ground truth)."""
    gt_bbox, gt_label, pred_bbox, pred_label = [], [], [], []
    for i in range(n_images):
        n_gt = 0 if i == 3 else rng.randint(1, 7)
        gb = boxes(rng, n_gt, extent, low, high)
        gl = rng.randint(0, n_class - 1, n_gt).astype(np.int32)
        found = rng.uniform(size=n_gt) < 0.8
        pb = perturb(rng, gb[found], sigma)
        pl = np.where(rng.uniform(size=len(pb)) < 0.1, rng.randint(0, n_class, len(pb)), gl[found])
        n_fp = 0 if i == 5 else rng.randint(0, 4)
        pb = np.concatenate([pb, boxes(rng, n_fp, extent, low, high)])
        pl = np.concatenate([pl, rng.randint(0, n_class, n_fp)]).astype(np.int32)
        gt_bbox.append(gb)
        gt_label.append(gl)
        pred_bbox.append(pb)
        pred_label.append(pl)
    # distinct scores: NumPy 1.23's argsort orders ties arbitrarily beyond 16 elements
    scores = rng.permutation(1000)[:sum(len(p) for p in pred_bbox)].astype(np.float32) / 1000
    pred_score = np.split(scores, np.cumsum([len(p) for p in pred_bbox])[:-1])
    return pred_bbox, pred_label, pred_score, gt_bbox, gt_label


def put_list(e, key, arrays):
    e[f"{key}/n"] = np.int64(len(arrays))
    for i, a in enumerate(arrays):
        e[f"{key}/{i}"] = np.asarray(a)


def put_classes(e, key, values):
    """A list over classes that may hold None."""
    e[f"{key}/none"] = np.array([l for l, v in enumerate(values) if v is None], np.int64)
    e[f"{key}/n"] = np.int64(len(values))
    for l, v in enumerate(values):
        if v is not None:
            e[f"{key}/{l}"] = np.asarray(v)


def put_coco(e, key, result):
    for k, v in result.items():
        if k == "coco_eval":
            continue
        e[f"{key}/{k}"] = np.asarray(v)


def masks_from_boxes(rng, bbox, h, w):
    masks = np.zeros((len(bbox), h, w), bool)
    for m, (y0, x0, y1, x1) in zip(masks, np.round(bbox).astype(int)):
        m[max(y0, 0):y1, max(x0, 0):x1] = True
        m &= rng.uniform(size=(h, w)) < 0.9
    return masks


def read_raccoon(name):
    root = ET.parse(os.path.join(RACCOON, "annotations", name)).getroot()
    bbox, difficult = [], []
    for obj in root.iter("object"):
        box = obj.find("bndbox")
        bbox.append([float(box.find(tag).text) for tag in ("ymin", "xmin", "ymax", "xmax")])
        difficult.append(int(obj.find("difficult").text) == 1)
    return np.array(bbox, np.float32).reshape(-1, 4), np.array(difficult, bool)


def main(outdir):
    rng = np.random.RandomState(2)
    e = {}

    # PASCAL VOC detection
    pb, pl, ps, gb, gl = detections(rng, 10, 200, 10, 80, 6, 5)
    gd = [(l == 3) & (rng.uniform(size=len(l)) < 0.5) for l in gl]
    for name, value in zip(("pred_bbox", "pred_label", "pred_score", "gt_bbox", "gt_label", "gt_difficult"),
                           (pb, pl, ps, gb, gl, gd)):
        put_list(e, f"det_voc/{name}", value)
    for case, thresh, difficult in (("t50", 0.5, gd), ("t75", 0.75, gd), ("t50_nodifficult", 0.5, None)):
        prec, rec = evaluations.calc_detection_voc_prec_rec(pb, pl, ps, gb, gl, difficult, iou_thresh=thresh)
        put_classes(e, f"det_voc/{case}/prec", prec)
        put_classes(e, f"det_voc/{case}/rec", rec)
        for suffix, use_07 in (("", False), ("07", True)):
            result = evaluations.eval_detection_voc(pb, pl, ps, gb, gl, difficult, iou_thresh=thresh,
                                                    use_07_metric=use_07)
            e[f"det_voc/{case}/ap{suffix}"] = result["ap"]
            e[f"det_voc/{case}/map{suffix}"] = np.float64(result["map"])

    # MS COCO detection: boxes from 5 to 150 pixels cover the small, medium and large ranges
    pb, pl, ps, gb, gl = detections(rng, 8, 300, 5, 150, 5, 4)
    area = [((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]) * rng.uniform(0.5, 1.0, len(b))).astype(np.float32)
            for b in gb]
    crowded = [rng.uniform(size=len(b)) < 0.15 for b in gb]
    for name, value in zip(("pred_bbox", "pred_label", "pred_score", "gt_bbox", "gt_label", "gt_area",
                            "gt_crowded"), (pb, pl, ps, gb, gl, area, crowded)):
        put_list(e, f"det_coco/{name}", value)
    put_coco(e, "det_coco/areas", evaluations.eval_detection_coco(pb, pl, ps, gb, gl, area, crowded))
    put_coco(e, "det_coco/plain", evaluations.eval_detection_coco(pb, pl, ps, gb, gl))

    # semantic segmentation
    pred, gt = [], []
    for h, w in ((12, 14), (9, 11), (10, 10)):
        g = rng.randint(0, 4, (h, w)).astype(np.int32)
        g[rng.uniform(size=(h, w)) < 0.15] = -1
        p = np.where(rng.uniform(size=(h, w)) < 0.6, np.maximum(g, 0), rng.randint(0, 5, (h, w))).astype(np.int32)
        pred.append(p)
        gt.append(g)
    put_list(e, "semseg/pred_label", pred)
    put_list(e, "semseg/gt_label", gt)
    e["semseg/confusion"] = evaluations.calc_semantic_segmentation_confusion(pred, gt)
    e["semseg/iou_from_confusion"] = evaluations.calc_semantic_segmentation_iou(e["semseg/confusion"])
    for k, v in evaluations.eval_semantic_segmentation(pred, gt).items():
        e[f"semseg/{k}"] = np.asarray(v)

    # instance segmentation: masks from boxes
    pb, pl, ps, gb, gl = detections(rng, 4, 14, 2, 9, 1.0, 3)
    h, w = 16, 18
    pm = [masks_from_boxes(rng, b, h, w) for b in pb]
    gm = [masks_from_boxes(rng, b, h, w) for b in gb]
    area = [m.sum(axis=(1, 2)).astype(np.float32) * 20 for m in gm]    # *20: spread over the size ranges
    crowded = [rng.uniform(size=len(m)) < 0.2 for m in gm]
    for name, value in zip(("pred_mask", "pred_label", "pred_score", "gt_mask", "gt_label", "gt_area",
                            "gt_crowded"), (pm, pl, ps, gm, gl, area, crowded)):
        put_list(e, f"ins/{name}", value)
    prec, rec = evaluations.calc_instance_segmentation_voc_prec_rec(pm, pl, ps, gm, gl, 0.5)
    put_classes(e, "ins_voc/t50/prec", prec)
    put_classes(e, "ins_voc/t50/rec", rec)
    for suffix, use_07 in (("", False), ("07", True)):
        result = evaluations.eval_instance_segmentation_voc(pm, pl, ps, gm, gl, use_07_metric=use_07)
        e[f"ins_voc/t50/ap{suffix}"] = result["ap"]
        e[f"ins_voc/t50/map{suffix}"] = np.float64(result["map"])
    put_coco(e, "ins_coco/areas", evaluations.eval_instance_segmentation_coco(pm, pl, ps, gm, gl, area, crowded))
    put_coco(e, "ins_coco/plain", evaluations.eval_instance_segmentation_coco(pm, pl, ps, gm, gl))

    # the real raccoon annotations (test split) against perturbed copies plus false positives
    with open(os.path.join(RACCOON, "test_labels.csv")) as f:
        images = sorted({line.split(",")[0] for line in f.read().splitlines()[1:]})
    files = [name.replace(".jpg", ".xml") for name in images]
    gt_bbox, gt_difficult = zip(*(read_raccoon(name) for name in files))
    pred_bbox, pred_score = [], []
    for b in gt_bbox:
        scale = np.concatenate([b[:, 2:] - b[:, :2]] * 2, axis=1)
        p = np.concatenate([b + rng.normal(0, 0.08, b.shape) * scale, boxes(rng, rng.randint(0, 3), 300, 20, 150)])
        p[:, 2:] = np.maximum(p[:, 2:], p[:, :2] + 1)
        pred_bbox.append(p.astype(np.float32))
    scores = rng.permutation(1000)[:sum(len(p) for p in pred_bbox)].astype(np.float32) / 1000
    pred_score = np.split(scores, np.cumsum([len(p) for p in pred_bbox])[:-1])
    pred_label = [np.zeros(len(p), np.int32) for p in pred_bbox]
    gt_label = [np.zeros(len(b), np.int32) for b in gt_bbox]
    areas = np.concatenate([(b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]) for b in gt_bbox])
    marked = np.split(areas < np.median(areas), np.cumsum([len(b) for b in gt_bbox])[:-1])
    e["raccoon/files"] = np.array(files)
    put_list(e, "raccoon/pred_bbox", pred_bbox)
    put_list(e, "raccoon/pred_score", pred_score)
    put_list(e, "raccoon/difficult", marked)
    for suffix, difficult in (("", gt_difficult), ("_difficult", marked)):
        for metric, use_07 in (("ap", False), ("ap07", True)):
            result = evaluations.eval_detection_voc(pred_bbox, pred_label, pred_score, gt_bbox, gt_label, difficult,
                                                    use_07_metric=use_07)
            e[f"raccoon/{metric}{suffix}"] = result["ap"]
    save_npz(f"{outdir}/evaluations.npz", e)


if __name__ == "__main__":
    main(sys.argv[1])
