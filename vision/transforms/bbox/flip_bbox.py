"""flip_bbox: bounding boxes that follow an image flip."""
import numpy

from kusari.vision._checks import check_bbox


def flip_bbox(bbox: numpy.ndarray, size: tuple, y_flip: bool = False, x_flip: bool = False) -> numpy.ndarray:
    """Move boxes as :func:`~kusari.vision.transforms.flip` moves the image they lie on.

    Parameters
    ----------
    bbox : numpy.ndarray, shape (R, 4)
        Floating-point boxes ``(y_min, x_min, y_max, x_max)``.
    size : tuple
        ``(H, W)``, the image's size.
    y_flip, x_flip : bool
        The flips made to the image.

    Returns
    -------
    numpy.ndarray, shape (R, 4)
        The flipped boxes (a new array of ``bbox``'s dtype).
    """
    check_bbox("flip_bbox", bbox)
    H, W = size
    out = bbox.copy()
    if y_flip:
        out[:, 0] = H - bbox[:, 2]
        out[:, 2] = H - bbox[:, 0]
    if x_flip:
        out[:, 1] = W - bbox[:, 3]
        out[:, 3] = W - bbox[:, 1]
    return out
