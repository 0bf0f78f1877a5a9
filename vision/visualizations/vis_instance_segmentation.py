"""vis_instance_segmentation: draw instance masks with captions over an image."""
import numpy

from kusari.vision.utils.mask.mask_iou import check_masks
from kusari.vision.utils.mask.mask_to_bbox import mask_to_bbox
from kusari.vision.visualizations.colormap import voc_colormap
from kusari.vision.visualizations.vis_bbox import caption, check_lengths
from kusari.vision.visualizations.vis_image import vis_image


def vis_instance_segmentation(img, mask, label=None, score=None, label_names=None, instance_colors=None,
                              alpha: float = 0.7, sort_by_score: bool = True, ax=None):
    """Draw instance masks, each in its colour, captioned with label names and scores.

    Parameters
    ----------
    img : numpy.ndarray, shape (3, H, W), or None
    mask : bool array, shape (R, H, W)
    label : int array, shape (R,), optional
    score : array, shape (R,), optional
    label_names : sequence of str, optional
    instance_colors : sequence of RGB triples in [0, 255], optional
        Entry i (modulo their number) colours instance i; VOC's colours 1, 2, ... by default.
    alpha : float
        Opacity of the masks (and of the caption boxes).
    sort_by_score : bool
        Draw higher-scored instances last (on top).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        With one RGBA image of the masks and a white caption at the top centre of each
        instance's box.
    """
    fname = "vis_instance_segmentation"
    check_masks(fname, "mask", mask)
    if img is not None and tuple(img.shape[1:]) != tuple(mask.shape[1:]):
        raise ValueError(f"{fname}: img (shape={tuple(img.shape)}) and mask (shape={tuple(mask.shape)}) "
                         "differ in size")
    ax = vis_image(img, ax=ax)
    check_lengths(fname, "mask", len(mask), label=label, score=score)
    if sort_by_score and score is not None:
        order = numpy.argsort(score, kind="stable")
        mask, score = mask[order], score[order]
        label = None if label is None else label[order]
    bbox = numpy.round(mask_to_bbox(mask)).astype(numpy.int32)
    if instance_colors is None:
        instance_colors = voc_colormap(range(1, len(mask) + 1))
    instance_colors = numpy.asarray(instance_colors)
    _, h, w = mask.shape
    canvas = numpy.zeros((h, w, 4), numpy.uint8)
    for i, ((y_min, x_min, y_max, x_max), m) in enumerate(zip(bbox, mask)):
        color = instance_colors[i % len(instance_colors)]
        if y_max > y_min and x_max > x_min:
            canvas[m] = numpy.append(color, alpha * 255)
        text = caption(fname, label, score, label_names, i)
        if text:
            ax.text((x_max + x_min) / 2, y_min, text, style="italic",
                    bbox={"facecolor": color / 255, "alpha": alpha}, fontsize=8, color="white")
    ax.imshow(canvas)
    return ax
