"""vis_semantic_segmentation: draw a label map (one colour per class) over an image."""
import numpy

from kusari.vision.visualizations.colormap import voc_colormap
from kusari.vision.visualizations.vis_image import vis_image


def vis_semantic_segmentation(img, label, label_names=None, label_colors=None, ignore_label_color=(0, 0, 0),
                              alpha: float = 1, all_label_names_in_legend: bool = False, ax=None):
    """Draw a semantic segmentation, and make legend entries for its classes.

    Parameters
    ----------
    img : numpy.ndarray, shape (3, H, W), or None
    label : int array, shape (H, W)
        Classes in [-1, n_class - 1]; -1 is drawn in ``ignore_label_color``.
    label_names : sequence of str, optional
        Sets n_class; without it (and without ``label_colors``) n_class is ``label.max() + 1``.
    label_colors : sequence of n_class RGB triples in [0, 255], optional
        VOC's colour map by default.
    ignore_label_color : RGB triple in [0, 255]
    alpha : float
        Opacity of the label map over the image.
    all_label_names_in_legend : bool
        As ChainerCV 0.13.1's code has it (its docstring says the opposite): True makes legend
        entries only for the classes present in ``label``, False for every class.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    (matplotlib.axes.Axes, list of matplotlib.patches.Patch)
        The axis and the legend handles (pass them to ``legend``).
    """
    import matplotlib
    from matplotlib.patches import Patch

    fname = "vis_semantic_segmentation"
    if label.ndim != 2:
        raise ValueError(f"{fname}: label must be an (H, W) array, got shape={tuple(label.shape)}")
    if label.dtype.kind not in "iu":
        raise TypeError(f"{fname}: label must hold integer classes, got dtype {label.dtype}")
    if img is not None and tuple(img.shape[1:]) != tuple(label.shape):
        raise ValueError(f"{fname}: img (shape={tuple(img.shape)}) and label (shape={tuple(label.shape)}) "
                         "differ in size")
    if label_names is not None:
        n_class = len(label_names)
    elif label_colors is not None:
        n_class = len(label_colors)
    else:
        n_class = int(label.max()) + 1
    if label_colors is not None and len(label_colors) != n_class:
        raise ValueError(f"{fname}: label_colors has {len(label_colors)} colours for {n_class} classes")
    if label.max() >= n_class:
        raise ValueError(f"{fname}: label holds class {int(label.max())} but there are {n_class} classes")

    ax = vis_image(img, ax=ax)
    if label_names is None:
        label_names = [str(i) for i in range(int(label.max()) + 1)]
    if label_colors is None:
        label_colors = voc_colormap(range(n_class))
    cmap = matplotlib.colors.ListedColormap(numpy.asarray(label_colors) / 255)
    # class l sits at l / (n_class - 1) of the colour map (with one class, at 0)
    span = max(n_class - 1, 1)
    canvas = cmap(label / span, alpha=alpha)
    canvas[label < 0, :3] = numpy.asarray(ignore_label_color) / 255
    ax.imshow(canvas)
    if all_label_names_in_legend:
        legend_labels = [int(l) for l in numpy.unique(label) if l >= 0]
    else:
        legend_labels = range(n_class)
    handles = [Patch(color=cmap(l / span), label=label_names[l]) for l in legend_labels]
    return ax, handles
