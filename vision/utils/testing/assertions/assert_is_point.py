"""assert_is_point: checks ChainerCV's point convention."""
import numpy

from kusari.vision.utils.testing.assertions._common import require


def assert_is_point(point, visible=None, size: tuple | None = None, n_point: int | None = None) -> None:
    """Raise AssertionError unless each ``point[i]`` is a float32 ``(K, 2)`` array of ``(y, x)``.

    Parameters
    ----------
    point : numpy.ndarray of shape (R, K, 2), or list of numpy.ndarray of shape (K, 2)
        The points to check.
    visible : numpy.ndarray of shape (R, K), or list of bool arrays of shape (K,), optional
        Which points are visible; only those are checked against ``size``.
    size : tuple of two ints, optional
        ``(H, W)``: every (visible) point must lie in ``[0, H] x [0, W]``.
    n_point : int, optional
        The number of points ``K`` each object must have.
    """
    if visible is not None:
        require(len(point) == len(visible), f"assert_is_point: point and visible must have the same length, "
                                            f"got {len(point)} and {len(visible)}")
    for i, pnt in enumerate(point):
        require(isinstance(pnt, numpy.ndarray), f"assert_is_point: point[{i}] must be a numpy.ndarray, "
                                                f"got {type(pnt).__name__}")
        require(pnt.dtype == numpy.float32, f"assert_is_point: point[{i}] must be float32, got {pnt.dtype}")
        require(pnt.ndim == 2 and pnt.shape[1] == 2, f"assert_is_point: point[{i}] must have shape (K, 2), "
                                                     f"got {pnt.shape}")
        if n_point is not None:
            require(pnt.shape[0] == n_point, f"assert_is_point: point[{i}] must hold n_point={n_point} points, "
                                             f"got {pnt.shape[0]}")
        if visible is not None:
            vsble = visible[i]
            require(isinstance(vsble, numpy.ndarray), f"assert_is_point: visible[{i}] must be a numpy.ndarray, "
                                                      f"got {type(vsble).__name__}")
            require(vsble.dtype == numpy.bool_, f"assert_is_point: visible[{i}] must be bool, got {vsble.dtype}")
            require(vsble.ndim == 1 and vsble.shape[0] == pnt.shape[0],
                    f"assert_is_point: visible[{i}] must have shape ({pnt.shape[0]},), got {vsble.shape}")
            pnt = pnt[vsble]
        if size is not None:
            inside = (pnt >= 0).all() and (pnt <= numpy.asarray(size)).all()
            require(inside, f"assert_is_point: the (visible) points of point[{i}] must lie inside the image "
                            f"of size {tuple(size)}")
