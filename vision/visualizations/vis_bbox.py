"""vis_bbox: draw boxes with their labels and scores over an image."""
import numpy

from kusari.vision.utils.bbox.bbox_iou import check_bbox
from kusari.vision.visualizations.vis_image import vis_image


def check_lengths(fname: str, name: str, n: int, **arrays) -> None:
    """Raise ValueError unless every given (non-None) array has ``n`` entries like ``name``."""
    for key, value in arrays.items():
        if value is not None and len(value) != n:
            raise ValueError(f"{fname}: {key} has {len(value)} entries but {name} has {n}")


def caption(fname: str, label, score, label_names, i) -> str:
    """'<label name>: <score to 2 decimals>' of instance i, either part when available."""
    parts = []
    if label is not None and label_names is not None:
        if not 0 <= label[i] < len(label_names):
            raise ValueError(f"{fname}: label {label[i]} of instance {i} has no name "
                             f"(label_names has {len(label_names)} entries)")
        parts.append(label_names[label[i]])
    if score is not None:
        parts.append(f"{score[i]:.2f}")
    return ": ".join(parts)


def vis_bbox(img, bbox, label=None, score=None, label_names=None, instance_colors=None, alpha: float = 1.0,
             linewidth: float = 3.0, sort_by_score: bool = True, ax=None):
    """Draw bounding boxes over an image, captioned with label names and scores.

    Parameters
    ----------
    img : numpy.ndarray, shape (3, H, W), or None
        RGB in [0, 255]; None draws the boxes alone.
    bbox : numpy.ndarray, shape (R, 4)
        (y_min, x_min, y_max, x_max).
    label : int array, shape (R,), optional
    score : array, shape (R,), optional
    label_names : sequence of str, optional
        Names by label id; without it captions hold only scores.
    instance_colors : sequence of RGB triples in [0, 255], optional
        The i-th box's colour is entry i modulo their number; red by default.
    alpha : float
        The boxes' opacity.
    linewidth : float
    sort_by_score : bool
        Draw higher-scored boxes last (on top).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        One Rectangle patch per box and one text per caption.
    """
    from matplotlib import pyplot

    fname = "vis_bbox"
    check_bbox(fname, "bbox", bbox)
    check_lengths(fname, "bbox", len(bbox), label=label, score=score)
    if sort_by_score and score is not None:
        order = numpy.argsort(score, kind="stable")
        bbox, score = bbox[order], score[order]
        label = None if label is None else label[order]
    ax = vis_image(img, ax=ax)
    if len(bbox) == 0:
        return ax
    if instance_colors is None:
        instance_colors = numpy.zeros((len(bbox), 3), numpy.float32)
        instance_colors[:, 0] = 255
    instance_colors = numpy.asarray(instance_colors)
    for i, (y_min, x_min, y_max, x_max) in enumerate(bbox):
        color = instance_colors[i % len(instance_colors)] / 255
        ax.add_patch(pyplot.Rectangle((x_min, y_min), x_max - x_min, y_max - y_min, fill=False, edgecolor=color,
                                      linewidth=linewidth, alpha=alpha))
        text = caption(fname, label, score, label_names, i)
        if text:
            ax.text(x_min, y_min, text, style="italic", bbox={"facecolor": "white", "alpha": 0.7, "pad": 10})
    return ax
