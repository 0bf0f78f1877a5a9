"""resize_bbox: bounding boxes that follow an image resize."""
import numpy

from kusari.vision._checks import check_bbox


def resize_bbox(bbox: numpy.ndarray, in_size: tuple, out_size: tuple) -> numpy.ndarray:
    """Scale boxes from an image of ``in_size`` to one of ``out_size``.

    The scales ``out_H / in_H`` and ``out_W / in_W`` are computed as Python floats and multiply the
    coordinates in ``bbox``'s dtype, as ChainerCV computed them under NumPy 1.

    Parameters
    ----------
    bbox : numpy.ndarray, shape (R, 4)
        Floating-point boxes ``(y_min, x_min, y_max, x_max)``.
    in_size, out_size : tuple
        ``(H, W)`` before and after resizing.

    Returns
    -------
    numpy.ndarray, shape (R, 4)
        The scaled boxes (a new array of ``bbox``'s dtype).
    """
    check_bbox("resize_bbox", bbox)
    y_scale = float(out_size[0]) / float(in_size[0])
    x_scale = float(out_size[1]) / float(in_size[1])
    out = bbox.copy()
    out[:, 0::2] = y_scale * bbox[:, 0::2]
    out[:, 1::2] = x_scale * bbox[:, 1::2]
    return out
