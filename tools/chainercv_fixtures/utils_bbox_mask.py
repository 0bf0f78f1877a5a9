"""ChainerCV 0.13.1's box and mask utilities on seeded random inputs.

Writes ``OUTDIR/utils_bbox_mask.npz``:

- ``bbox_iou/<case>/{a,b,iou}``: float32 and float64 boxes with duplicates, shared edges and
  zero-area boxes, and an empty ``a``;
- ``nms/<case>/{bbox,score,thresh,limit,keep}``: non_maximum_suppression on clustered boxes with
  distinct scores, tied scores (at most 16 boxes, where NumPy 1.23's argsort is stable), no score,
  a limit, an IoU exactly at the threshold, 1,200 boxes (several of kusari's blocks) and no boxes
  (``score`` empty when None is passed, ``limit`` -1 for None);
- ``mask_iou/{a,b,iou}`` (with empty masks), ``mask_to_bbox/{mask,bbox}`` (with an empty mask);
- ``scale_mask/<case>/<backend>/{mask,bbox,size,out}`` for the cv2 and PIL resize backends.
"""
import sys

import numpy as np

import chainer
from chainercv import utils

from _common import save_npz


def random_boxes(rng, n, extent=60.0, low=2.0, high=25.0, dtype=np.float32):
    top_left = rng.uniform(0, extent, (n, 2))
    size = rng.uniform(low, high, (n, 2))
    return np.concatenate([top_left, top_left + size], axis=1).astype(dtype)


def blob_masks(rng, n, h, w):
    masks = np.zeros((n, h, w), bool)
    for m in masks:
        y0, x0 = rng.randint(0, h - 2), rng.randint(0, w - 2)
        y1, x1 = rng.randint(y0 + 1, h + 1), rng.randint(x0 + 1, w + 1)
        m[y0:y1, x0:x1] = rng.uniform(size=(y1 - y0, x1 - x0)) < 0.8
    return masks


def main(outdir):
    rng = np.random.RandomState(1)
    e = {}

    # bbox_iou
    a = random_boxes(rng, 8)
    a[3] = a[1]                                   # a duplicate
    a[4] = [a[0, 2], a[0, 1], a[0, 2] + 5, a[0, 3]]   # shares a[0]'s bottom edge
    a[5] = [10, 10, 10, 20]                       # zero height
    b = np.concatenate([random_boxes(rng, 5), a[:2]])
    for name, (xa, xb) in {"float32": (a, b), "float64": (a.astype(np.float64), b.astype(np.float64)),
                           "empty": (np.zeros((0, 4), np.float32), b)}.items():
        e[f"bbox_iou/{name}/a"], e[f"bbox_iou/{name}/b"] = xa, xb
        e[f"bbox_iou/{name}/iou"] = utils.bbox_iou(xa, xb)

    # non_maximum_suppression
    centres = random_boxes(rng, 6, extent=80, low=10, high=30)
    clustered = np.concatenate([c + rng.normal(0, 3, (7, 4)) for c in centres]).astype(np.float32)
    clustered[:, 2:] = np.maximum(clustered[:, 2:], clustered[:, :2] + 1)
    tied = clustered[::3][:14]                     # from every cluster, so that several survive
    tied_score = np.round(rng.uniform(size=14) * 3).astype(np.float32) / 3
    big = random_boxes(rng, 1200, extent=400, low=5, high=60)
    cases = {
        "distinct": (clustered, rng.uniform(size=len(clustered)).astype(np.float32), 0.5, None),
        "ties": (tied, tied_score, 0.3, None),
        "no_score": (clustered, None, 0.4, None),
        "limit": (clustered, rng.uniform(size=len(clustered)).astype(np.float32), 0.5, 5),
        "at_threshold": (np.array([[0, 0, 10, 10], [0, 0, 10, 20], [0, 0, 10, 40]], np.float32),
                         np.array([0.9, 0.8, 0.7], np.float32), 0.5, None),
        "large": (big, rng.uniform(size=len(big)).astype(np.float32), 0.3, None),
        "empty": (np.zeros((0, 4), np.float32), np.zeros((0,), np.float32), 0.5, None),
    }
    for name, (bbox, score, thresh, limit) in cases.items():
        keep = utils.non_maximum_suppression(bbox, thresh, score, limit)
        e.update({f"nms/{name}/bbox": bbox, f"nms/{name}/score": np.zeros(0, np.float32) if score is None else score,
                  f"nms/{name}/thresh": np.float64(thresh), f"nms/{name}/limit": np.int64(-1 if limit is None else limit),
                  f"nms/{name}/keep": keep})

    # mask_iou, mask_to_bbox
    ma = blob_masks(rng, 6, 10, 12)
    ma[2] = False
    mb = np.concatenate([blob_masks(rng, 3, 10, 12), ma[:1], np.zeros((1, 10, 12), bool)])
    e["mask_iou/a"], e["mask_iou/b"], e["mask_iou/iou"] = ma, mb, utils.mask_iou(ma, mb)
    mask = blob_masks(rng, 7, 10, 12)
    mask[1] = False
    mask[4] = False
    mask[4, 9, 11] = True
    mask[5] = True
    e["mask_to_bbox/mask"], e["mask_to_bbox/bbox"] = mask, utils.mask_to_bbox(mask)

    # scale_mask: only the box region is resized, through the configured resize backend
    for case, (h, w, size) in {"wide": (10, 15, 17), "tall": (16, 9, 7)}.items():
        mask = blob_masks(rng, 4, h, w)
        bbox = utils.mask_to_bbox(mask)
        for backend in ("cv2", "PIL"):
            with chainer.using_config("cv_resize_backend", backend):
                out = utils.scale_mask(mask, bbox.copy(), size)
            key = f"scale_mask/{case}/{backend}"
            e.update({f"{key}/mask": mask, f"{key}/bbox": bbox, f"{key}/size": np.int64(size), f"{key}/out": out})
    save_npz(f"{outdir}/utils_bbox_mask.npz", e)


if __name__ == "__main__":
    main(sys.argv[1])
