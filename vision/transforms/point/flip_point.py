"""flip_point: points that follow an image flip."""
import numpy

from kusari.vision._checks import check_point


def flip_point(point, size: tuple, y_flip: bool = False, x_flip: bool = False):
    """Move points as :func:`~kusari.vision.transforms.flip` moves the image they lie on.

    Parameters
    ----------
    point : numpy.ndarray of shape (R, K, 2), or list of numpy.ndarray of shape (K, 2)
        Floating-point ``(y, x)`` points of ``R`` objects.
    size : tuple
        ``(H, W)``, the image's size.
    y_flip, x_flip : bool
        The flips made to the image.

    Returns
    -------
    numpy.ndarray or list of numpy.ndarray
        The flipped points, new arrays in ``point``'s form (an array for an array, else a list).
    """
    check_point("flip_point", point)
    H, W = size

    def _flip(p):
        out = p.copy()
        if y_flip:
            out[..., 0] = H - p[..., 0]
        if x_flip:
            out[..., 1] = W - p[..., 1]
        return out

    return _flip(point) if isinstance(point, numpy.ndarray) else [_flip(p) for p in point]
