"""resize_point: points that follow an image resize."""
import numpy

from kusari.vision._checks import check_point


def resize_point(point, in_size: tuple, out_size: tuple):
    """Scale points from an image of ``in_size`` to one of ``out_size``.

    The scales ``out_H / in_H`` and ``out_W / in_W`` are Python floats multiplying the coordinates in
    the points' dtype, as ChainerCV computed them under NumPy 1.

    Parameters
    ----------
    point : numpy.ndarray of shape (R, K, 2), or list of numpy.ndarray of shape (K, 2)
        Floating-point ``(y, x)`` points of ``R`` objects.
    in_size, out_size : tuple
        ``(H, W)`` before and after resizing.

    Returns
    -------
    numpy.ndarray or list of numpy.ndarray
        The scaled points, new arrays in ``point``'s form (an array for an array, else a list).
    """
    check_point("resize_point", point)
    y_scale = float(out_size[0]) / float(in_size[0])
    x_scale = float(out_size[1]) / float(in_size[1])

    def _resize(p):
        out = p.copy()
        out[..., 0] = y_scale * p[..., 0]
        out[..., 1] = x_scale * p[..., 1]
        return out

    return _resize(point) if isinstance(point, numpy.ndarray) else [_resize(p) for p in point]
