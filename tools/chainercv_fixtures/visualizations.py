"""What ChainerCV 0.13.1's visualizations draw (matplotlib Agg), as artist properties rather than pixels.

Writes ``OUTDIR/visualizations.npz``; for each case ``<case>/`` its inputs (``img``, ``bbox``,
``label``, ``score``, ``mask``, ``point``, ``visible``, ``seg`` as given, ``label_names`` as a string
array) and what the axis holds:

- ``patches``: (P, 10) per Rectangle: x, y, width, height, edge RGBA, linewidth, alpha (nan for None);
- ``texts``: the strings; ``text_props``: (T, 8) per text: x, y, fontsize, italic (1/0), bbox face
  RGBA (of the drawn box patch, alpha applied); ``text_colors``: (T, 4) RGBA of the text;
- ``image_<k>``: the data of the k-th image (``n_images`` of them);
- ``points``: (S, 7) per scatter: x, y, face RGBA, size; ``limits``: x and y limits;
- ``legend_labels`` and ``legend_colors`` (RGBA) for vis_semantic_segmentation.
"""
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from chainercv import visualizations  # noqa: E402

from _common import save_npz  # noqa: E402

NAMES = ["cat", "dog", "bird", "cow", "person"]


def record(e, key, ax, legend=None):
    patches = [p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle)]
    e[f"{key}/patches"] = np.array(
        [[*p.get_xy(), p.get_width(), p.get_height(), *p.get_edgecolor(), p.get_linewidth(),
          np.nan if p.get_alpha() is None else p.get_alpha()] for p in patches], np.float64).reshape(-1, 10)
    e[f"{key}/texts"] = np.array([t.get_text() for t in ax.texts], dtype=str)
    e[f"{key}/text_props"] = np.array(
        [[*t.get_position(), t.get_fontsize(), t.get_style() == "italic", *t.get_bbox_patch().get_facecolor()]
         for t in ax.texts], np.float64).reshape(-1, 8)
    e[f"{key}/text_colors"] = np.array([matplotlib.colors.to_rgba(t.get_color()) for t in ax.texts]).reshape(-1, 4)
    e[f"{key}/n_images"] = np.int64(len(ax.images))
    for k, image in enumerate(ax.images):
        e[f"{key}/image_{k}"] = np.asarray(image.get_array())
    e[f"{key}/points"] = np.array(
        [[*c.get_offsets()[0], *c.get_facecolor()[0], c.get_sizes()[0]] for c in ax.collections],
        np.float64).reshape(-1, 7)
    e[f"{key}/limits"] = np.array([*ax.get_xlim(), *ax.get_ylim()])
    if legend is not None:
        e[f"{key}/legend_labels"] = np.array([h.get_label() for h in legend], dtype=str)
        e[f"{key}/legend_colors"] = np.array([h.get_facecolor() for h in legend]).reshape(-1, 4)
    plt.close("all")


def main(outdir):
    rng = np.random.RandomState(3)
    e = {}
    img = rng.uniform(0, 255, (3, 12, 16)).astype(np.float32)
    bbox = np.array([[1, 2, 8, 9], [0, 0, 12, 16], [3.5, 4.25, 7, 15], [5, 1, 6, 3], [2, 10, 11, 14]], np.float32)
    label = np.array([0, 4, 2, 2, 1], np.int32)
    score = np.array([0.3, 0.9, 0.5, 0.123, 0.77], np.float32)
    colors = [(10, 200, 30), (255, 0, 255), (0, 0, 128)]

    visualizations.vis_image(img)
    record(e, "image", plt.gca())
    e["image/img"] = img

    bbox_cases = {
        "bbox_full": dict(label=label, score=score, label_names=NAMES),
        "bbox_colors_unsorted": dict(label=label, score=score, label_names=NAMES, instance_colors=colors,
                                     alpha=0.6, linewidth=2.0, sort_by_score=False),
        "bbox_scores_only": dict(score=score),
        "bbox_plain": dict(label=label),
        "bbox_empty": dict(),
    }
    for case, kwargs in bbox_cases.items():
        boxes = bbox[:0] if case == "bbox_empty" else bbox
        ax = visualizations.vis_bbox(img, boxes, **kwargs)
        record(e, case, ax)
        e[f"{case}/img"], e[f"{case}/bbox"] = img, boxes

    point = rng.uniform(0, 12, (2, 4, 2)).astype(np.float32)
    visible = np.array([[True, False, True, True], [True, True, True, False]])
    record(e, "point", visualizations.vis_point(img, point, visible))
    e["point/img"], e["point/point"], e["point/visible"] = img, point, visible
    record(e, "point_all_visible", visualizations.vis_point(img, point))
    e["point_all_visible/img"], e["point_all_visible/point"] = img, point

    seg = rng.randint(-1, 4, (12, 16)).astype(np.int32)
    seg_cases = {
        "seg_names": dict(label_names=NAMES),
        "seg_colors_alpha": dict(label_colors=[(1, 2, 3), (200, 100, 50), (0, 255, 0), (9, 9, 9)],
                                 ignore_label_color=(255, 255, 255), alpha=0.5),
        "seg_present_only": dict(label_names=NAMES, all_label_names_in_legend=True),
        "seg_default": dict(),
    }
    for case, kwargs in seg_cases.items():
        ax, legend = visualizations.vis_semantic_segmentation(img, seg, **kwargs)
        record(e, case, ax, legend)
        e[f"{case}/img"], e[f"{case}/seg"] = img, seg

    mask = np.zeros((4, 12, 16), bool)
    for m, (y0, x0, y1, x1) in zip(mask, bbox[:4].astype(int)):
        m[y0:y1, x0:x1] = rng.uniform(size=(y1 - y0, x1 - x0)) < 0.7
    mask[3] = False                                  # an empty instance: no pixels, caption at (0, 0)
    inst_cases = {
        "inst_full": dict(label=label[:4], score=score[:4], label_names=NAMES),
        "inst_colors_unsorted": dict(label=label[:4], score=score[:4], label_names=NAMES, instance_colors=colors,
                                     alpha=0.4, sort_by_score=False),
        "inst_plain": dict(),
    }
    for case, kwargs in inst_cases.items():
        record(e, case, visualizations.vis_instance_segmentation(img, mask, **kwargs))
        e[f"{case}/img"], e[f"{case}/mask"] = img, mask
    e["inputs/label"], e["inputs/score"], e["inputs/label_names"] = label, score, np.array(NAMES)
    e["inputs/colors"] = np.array(colors)
    save_npz(f"{outdir}/visualizations.npz", e)


if __name__ == "__main__":
    main(sys.argv[1])
