"""vis_image: show a CHW RGB image on a matplotlib axis."""
import numpy


def check_image(fname: str, img) -> None:
    """Raise ValueError unless ``img`` is a (3, H, W) CHW RGB image."""
    if img.ndim != 3 or img.shape[0] != 3:
        raise ValueError(f"{fname}: img must be a CHW RGB image of shape (3, H, W), got shape={tuple(img.shape)}"
                         + (" (HWC? transpose it with img.transpose(2, 0, 1))" if img.ndim == 3 and img.shape[2] == 3
                            else ""))


def vis_image(img, ax=None):
    """Draw an image.

    Parameters
    ----------
    img : numpy.ndarray, shape (3, H, W), or None
        RGB values in [0, 255] (cast to uint8 as drawn); None draws nothing.
    ax : matplotlib.axes.Axes, optional
        Where to draw; None makes a new figure with one axis.

    Returns
    -------
    matplotlib.axes.Axes
    """
    from matplotlib import pyplot

    if img is not None:
        check_image("vis_image", img)
    if ax is None:
        ax = pyplot.figure().add_subplot(1, 1, 1)
    if img is not None:
        ax.imshow(img.transpose(1, 2, 0).astype(numpy.uint8))
    return ax
