"""crop_bbox: bounding boxes that follow an image crop, clipped to it; boxes left outside are dropped."""
import numpy

from kusari.vision._checks import check_bbox


def _bounds(fname: str, argname: str, slice_) -> tuple:
    """``(start, stop)`` of a crop slice, with 0 and infinity for open ends."""
    if slice_ is None:
        return 0, numpy.inf
    if not isinstance(slice_, slice) or slice_.step not in (None, 1):
        raise ValueError(f"{fname}: {argname} must be None or a slice with step 1, got {slice_!r}")
    return (0 if slice_.start is None else slice_.start,
            numpy.inf if slice_.stop is None else slice_.stop)


def crop_bbox(bbox: numpy.ndarray, y_slice: slice | None = None, x_slice: slice | None = None,
              allow_outside_center: bool = True, return_param: bool = False):
    """Move boxes into the coordinates of the crop ``img[:, y_slice, x_slice]``, clip them to it, and
    drop those that do not overlap it (or, unless ``allow_outside_center``, whose centre lies outside).

    Parameters
    ----------
    bbox : numpy.ndarray, shape (R, 4)
        Floating-point boxes ``(y_min, x_min, y_max, x_max)``.
    y_slice, x_slice : slice or None
        The crop (None: the whole axis).
    allow_outside_center : bool
        Keep boxes whose centre is outside the crop (default).
    return_param : bool
        Also return which boxes were kept and which were clipped.

    Returns
    -------
    numpy.ndarray, shape (R', 4), or (numpy.ndarray, dict)
        The kept boxes in the crop's coordinates, of ``bbox``'s dtype; with ``return_param``, also
        ``{'index': numpy.ndarray, 'truncated_index': numpy.ndarray}`` (int64): the kept boxes' rows
        in ``bbox``, and the clipped boxes' rows in the returned array. (ChainerCV's docstring
        spells the second key 'trancated_index'; its code, and this, return 'truncated_index'.)
    """
    check_bbox("crop_bbox", bbox)
    top, bottom = _bounds("crop_bbox", "y_slice", y_slice)
    left, right = _bounds("crop_bbox", "x_slice", x_slice)
    crop = numpy.array((top, left, bottom, right))
    if allow_outside_center:
        keep = numpy.ones(bbox.shape[0], dtype=bool)
    else:
        center = (bbox[:, :2] + bbox[:, 2:]) / 2
        keep = ((crop[:2] <= center) & (center < crop[2:])).all(axis=1)
    out = bbox.copy()
    out[:, :2] = numpy.maximum(bbox[:, :2], crop[:2])
    out[:, 2:] = numpy.minimum(bbox[:, 2:], crop[2:])
    truncated = (out != bbox).any(axis=1)
    out[:, :2] -= crop[:2]
    out[:, 2:] -= crop[:2]
    keep &= (out[:, :2] < out[:, 2:]).all(axis=1)
    out = out[keep]
    if return_param:
        return out, {"index": numpy.flatnonzero(keep), "truncated_index": numpy.flatnonzero(truncated[keep])}
    return out
