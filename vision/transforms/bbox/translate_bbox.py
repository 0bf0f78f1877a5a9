"""translate_bbox: bounding boxes that follow a shift of the image origin (padding, cropping)."""
import numpy

from kusari.vision._checks import check_bbox


def translate_bbox(bbox: numpy.ndarray, y_offset: float = 0, x_offset: float = 0) -> numpy.ndarray:
    """Add ``(y_offset, x_offset)`` to both corners of every box.

    The offsets form a float64 (or int64) pair added in place to a copy of ``bbox``, as in ChainerCV:
    the sum is rounded once to ``bbox``'s dtype.

    Parameters
    ----------
    bbox : numpy.ndarray, shape (R, 4)
        Floating-point boxes ``(y_min, x_min, y_max, x_max)``.
    y_offset, x_offset : int or float
        Where the old image's top-left corner lies in the new one.

    Returns
    -------
    numpy.ndarray, shape (R, 4)
        The moved boxes (a new array of ``bbox``'s dtype).
    """
    check_bbox("translate_bbox", bbox)
    out = bbox.copy()
    offset = numpy.array((y_offset, x_offset))
    out[:, :2] += offset
    out[:, 2:] += offset
    return out
