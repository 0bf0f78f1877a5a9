"""Input checks shared by kusari.vision: CHW images, (R, 4) boxes, points and (height, width) sizes.

Each raises a TypeError or ValueError that names the function, the argument and what it received.
"""
import numpy


def _describe(x) -> str:
    return f"shape={tuple(x.shape)}, dtype={x.dtype}"


def check_image(fname: str, img, argname: str = "img", channels: tuple | None = None) -> None:
    """``img`` is a CHW numeric ndarray (with ``C`` in ``channels`` when given), not an HWC one.

    An array whose last axis has 1, 3 or 4 entries while its first has more than 4 is taken for an
    HWC image (a CHW image that narrow is not plausible) and refused with the transpose to apply.
    """
    if not isinstance(img, numpy.ndarray):
        raise TypeError(f"{fname}: {argname} must be a numpy.ndarray in CHW layout, got {type(img).__name__}")
    if img.dtype.kind not in "uif":
        raise TypeError(f"{fname}: {argname} must have an integer or floating-point dtype, got {img.dtype} "
                        f"({_describe(img)})")
    if img.ndim != 3:
        raise ValueError(f"{fname}: {argname} must be a 3-dimensional CHW array, got {img.ndim} dimensions "
                         f"({_describe(img)})")
    if img.shape[2] in (1, 3, 4) and img.shape[0] > 4:
        raise ValueError(f"{fname}: {argname} looks like an HWC image ({_describe(img)}); kusari.vision takes "
                         f"CHW images: pass {argname}.transpose(2, 0, 1)")
    if channels is not None and img.shape[0] not in channels:
        want = " or ".join(map(str, channels))
        raise ValueError(f"{fname}: {argname} must have {want} channels, got {img.shape[0]} ({_describe(img)})")


def check_size(fname: str, size, argname: str = "size") -> tuple:
    """``size`` as a ``(height, width)`` tuple of non-negative ints."""
    try:
        H, W = size
    except (TypeError, ValueError):
        raise ValueError(f"{fname}: {argname} must be a (height, width) pair, got {size!r}") from None
    if not all(isinstance(v, (int, numpy.integer)) and not isinstance(v, bool) and v >= 0 for v in (H, W)):
        raise ValueError(f"{fname}: {argname} must hold two non-negative ints, got {size!r}")
    return int(H), int(W)


def check_bbox(fname: str, bbox, argname: str = "bbox") -> None:
    """``bbox`` is a floating-point ``(R, 4)`` array of ``(y_min, x_min, y_max, x_max)`` rows, each with
    ``y_min <= y_max`` and ``x_min <= x_max`` (``R`` may be 0)."""
    if not isinstance(bbox, numpy.ndarray):
        raise TypeError(f"{fname}: {argname} must be a numpy.ndarray of shape (R, 4), got {type(bbox).__name__}")
    if bbox.ndim != 2 or bbox.shape[1] != 4:
        raise ValueError(f"{fname}: {argname} must have shape (R, 4), got {_describe(bbox)}")
    if bbox.dtype.kind != "f":
        raise TypeError(f"{fname}: {argname} must be a floating-point array (float32 in ChainerCV's "
                        f"convention), got {_describe(bbox)}")
    inverted = numpy.flatnonzero((bbox[:, 2] < bbox[:, 0]) | (bbox[:, 3] < bbox[:, 1]))
    if inverted.size:
        i = int(inverted[0])
        raise ValueError(f"{fname}: {argname}[{i}] = {bbox[i].tolist()} has y_max < y_min or x_max < x_min "
                         f"({inverted.size} such rows; rows are (y_min, x_min, y_max, x_max), {_describe(bbox)})")


def check_point(fname: str, point, argname: str = "point") -> None:
    """``point`` is a floating-point ``(R, K, 2)`` array or a list of ``(K, 2)`` arrays of ``(y, x)``."""
    if isinstance(point, numpy.ndarray):
        if point.ndim != 3 or point.shape[2] != 2:
            raise ValueError(f"{fname}: {argname} must have shape (R, K, 2), got {_describe(point)}")
        arrays = [(argname, point)]
    elif isinstance(point, (list, tuple)):
        arrays = [(f"{argname}[{i}]", p) for i, p in enumerate(point)]
        for name, p in arrays:
            if not isinstance(p, numpy.ndarray):
                raise TypeError(f"{fname}: {name} must be a numpy.ndarray of shape (K, 2), got {type(p).__name__}")
            if p.ndim != 2 or p.shape[1] != 2:
                raise ValueError(f"{fname}: {name} must have shape (K, 2), got {_describe(p)}")
    else:
        raise TypeError(f"{fname}: {argname} must be an (R, K, 2) numpy.ndarray or a list of (K, 2) arrays, "
                        f"got {type(point).__name__}")
    for name, p in arrays:
        if p.dtype.kind != "f":
            raise TypeError(f"{fname}: {name} must be a floating-point array (float32 in ChainerCV's "
                            f"convention), got {_describe(p)}")
