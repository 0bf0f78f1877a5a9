"""vis_point: draw keypoints over an image."""
import numpy

from kusari.vision.visualizations.vis_image import vis_image


def vis_point(img, point, visible=None, ax=None):
    """Draw the points of each instance, coloured by their index along gist_rainbow.

    Parameters
    ----------
    img : numpy.ndarray, shape (3, H, W), or None
    point : array (R, K, 2) or list of (K, 2) arrays
        (y, x) of each point of each instance.
    visible : bool array (R, K) or list of (K,) arrays, optional
        Points to draw (all by default).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        One scatter (size 100) per visible point; with an image, the view is the image's extent.
    """
    from matplotlib import pyplot

    if visible is not None and len(visible) != len(point):
        raise ValueError(f"vis_point: visible has {len(visible)} instances but point has {len(point)}")
    ax = vis_image(img, ax=ax)
    cmap = pyplot.get_cmap("gist_rainbow")
    for i, points in enumerate(point):
        points = numpy.asarray(points)
        if points.ndim != 2 or points.shape[1] != 2:
            raise ValueError(f"vis_point: point[{i}] must have shape (K, 2) as (y, x), got shape={points.shape}")
        shown = numpy.ones(len(points), bool) if visible is None else numpy.asarray(visible[i], bool)
        if shown.shape != (len(points),):
            raise ValueError(f"vis_point: visible[{i}] has shape {shown.shape}, point[{i}] has {len(points)} points")
        for k, (y, x) in enumerate(points):
            if shown[k]:
                ax.scatter(x, y, color=cmap(k / len(points)), s=100)
    if img is not None:
        _, h, w = img.shape
        ax.set_xlim(left=0, right=w)
        ax.set_ylim(bottom=h - 1, top=0)
    return ax
