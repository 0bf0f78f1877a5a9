"""translate_point: points that follow a shift of the image origin (padding, cropping)."""
import numpy

from kusari.vision._checks import check_point


def translate_point(point, y_offset: float = 0, x_offset: float = 0):
    """Add ``y_offset`` and ``x_offset`` to the points' coordinates.

    Each offset is rounded to the points' dtype and added there, as ChainerCV's scalar addition did
    under NumPy 1 (whose value-based casting kept float32 points in float32 even for a
    ``numpy.float64`` offset).

    Parameters
    ----------
    point : numpy.ndarray of shape (R, K, 2), or list of numpy.ndarray of shape (K, 2)
        Floating-point ``(y, x)`` points of ``R`` objects.
    y_offset, x_offset : int or float
        Where the old image's top-left corner lies in the new one.

    Returns
    -------
    numpy.ndarray or list of numpy.ndarray
        The moved points, new arrays in ``point``'s form (an array for an array, else a list).
    """
    check_point("translate_point", point)

    def _translate(p):
        out = p.copy()
        out[..., 0] += p.dtype.type(y_offset)
        out[..., 1] += p.dtype.type(x_offset)
        return out

    return _translate(point) if isinstance(point, numpy.ndarray) else [_translate(p) for p in point]
