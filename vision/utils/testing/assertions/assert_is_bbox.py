"""assert_is_bbox: checks ChainerCV's bounding-box convention."""
import numpy

from kusari.vision.utils.testing.assertions._common import require


def assert_is_bbox(bbox, size: tuple | None = None) -> None:
    """Raise AssertionError unless ``bbox`` is a float32 ``(R, 4)`` array of ``(y_min, x_min, y_max,
    x_max)`` rows with ``y_min < y_max`` and ``x_min < x_max``, inside an image of ``size`` if given.

    Parameters
    ----------
    bbox : numpy.ndarray, shape (R, 4)
        The boxes to check.
    size : tuple of two ints, optional
        ``(H, W)``: every box must lie in ``[0, H] x [0, W]``.
    """
    require(isinstance(bbox, numpy.ndarray), f"assert_is_bbox: bbox must be a numpy.ndarray, got {type(bbox).__name__}")
    require(bbox.dtype == numpy.float32, f"assert_is_bbox: bbox must be float32, got {bbox.dtype}")
    require(bbox.ndim == 2 and bbox.shape[1] == 4, f"assert_is_bbox: bbox must have shape (R, 4), got {bbox.shape}")
    bad = numpy.flatnonzero(bbox[:, 0] >= bbox[:, 2])
    require(bad.size == 0, f"assert_is_bbox: y_min must be less than y_max, not so in row "
                           f"{bad[:1].tolist()} ({bbox[bad[:1]].tolist()}) and {max(bad.size - 1, 0)} more")
    bad = numpy.flatnonzero(bbox[:, 1] >= bbox[:, 3])
    require(bad.size == 0, f"assert_is_bbox: x_min must be less than x_max, not so in row "
                           f"{bad[:1].tolist()} ({bbox[bad[:1]].tolist()}) and {max(bad.size - 1, 0)} more")
    if size is not None:
        inside = (bbox[:, :2] >= 0).all() and (bbox[:, 2:] <= numpy.asarray(size)).all()
        require(inside, f"assert_is_bbox: every box must lie inside the image of size {tuple(size)}")
