"""rotate_bbox: bounding boxes that follow an image rotation by a multiple of 90 degrees."""
import numpy

from kusari.vision._checks import check_bbox


def rotate_bbox(bbox: numpy.ndarray, angle: float, size: tuple) -> numpy.ndarray:
    """Move boxes as :func:`~kusari.vision.transforms.rotate` moves the image by ``angle`` degrees
    counter-clockwise (a multiple of 90).

    Parameters
    ----------
    bbox : numpy.ndarray, shape (R, 4)
        Floating-point boxes ``(y_min, x_min, y_max, x_max)``.
    angle : float
        Counter-clockwise angle in degrees; ``angle % 90`` must be 0.
    size : tuple
        ``(H, W)``, the image's size before rotating.

    Returns
    -------
    numpy.ndarray, shape (R, 4)
        The rotated boxes, of ``bbox``'s dtype (``bbox`` itself for a multiple of 360).
    """
    check_bbox("rotate_bbox", bbox)
    if angle % 90 != 0:
        raise ValueError(f"rotate_bbox: angle must be a multiple of 90 degrees, got {angle}")
    H, W = size
    turn = angle % 360
    if turn == 0:
        return bbox
    y_min, x_min, y_max, x_max = bbox[:, 0], bbox[:, 1], bbox[:, 2], bbox[:, 3]
    if turn == 90:
        columns = (W - x_max, y_min, W - x_min, y_max)
    elif turn == 180:
        columns = (H - y_max, W - x_max, H - y_min, W - x_min)
    else:
        columns = (x_min, H - y_max, x_max, H - y_min)
    return numpy.stack(columns, axis=1).astype(bbox.dtype, copy=False)
