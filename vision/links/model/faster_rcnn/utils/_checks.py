"""Argument checks shared by the Faster R-CNN utilities (work on NumPy and CuPy arrays)."""
import numpy

from kusari.vision.utils.bbox.bbox_iou import check_bbox


def check_boxes(fname: str, argname: str, bbox, allow_empty: bool = True) -> None:
    """``bbox`` is a floating-point ``(R, 4)`` array of ``(y_min, x_min, y_max, x_max)`` rows with ends >=
    starts (``R >= 1`` unless ``allow_empty``)."""
    if not hasattr(bbox, "dtype") or not hasattr(bbox, "ndim"):
        raise TypeError(f"{fname}: {argname} must be an array of shape (R, 4), got {type(bbox).__name__}")
    if bbox.dtype.kind != "f":
        raise TypeError(f"{fname}: {argname} must be a floating-point array (float32 in ChainerCV's convention), "
                        f"got dtype={bbox.dtype} (shape={tuple(bbox.shape)})")
    check_bbox(fname, argname, bbox)
    if not allow_empty and bbox.shape[0] == 0:
        raise ValueError(f"{fname}: {argname} must hold at least one box, got shape={tuple(bbox.shape)}")


def check_img_size(fname: str, img_size) -> tuple:
    """``img_size`` as a ``(height, width)`` pair of positive numbers."""
    try:
        H, W = img_size
    except (TypeError, ValueError):
        raise ValueError(f"{fname}: img_size must be a (height, width) pair, got {img_size!r}") from None
    if not all(isinstance(v, (int, float, numpy.integer, numpy.floating)) and not isinstance(v, bool) and v > 0
               for v in (H, W)):
        raise ValueError(f"{fname}: img_size must hold two positive numbers, got {img_size!r}")
    return H, W


def check_labels(fname: str, label, n_bbox: int, n_fg_class: int | None = None) -> None:
    """``label`` is an integer ``(R,)`` array for ``n_bbox`` boxes, each in ``[0, n_fg_class)`` (``>= 0``
    when ``n_fg_class`` is None)."""
    if not hasattr(label, "dtype") or label.dtype.kind not in "iu":
        raise TypeError(f"{fname}: label must be an integer array, got "
                        f"{getattr(label, 'dtype', type(label).__name__)}")
    if tuple(label.shape) != (n_bbox,):
        raise ValueError(f"{fname}: label must have shape (R,) = ({n_bbox},), one per box, "
                         f"got shape={tuple(label.shape)}")
    if n_bbox:
        lo, hi = int(label.min()), int(label.max())
        if lo < 0 or (n_fg_class is not None and hi >= n_fg_class):
            bound = f"[0, {n_fg_class})" if n_fg_class is not None else ">= 0"
            raise ValueError(f"{fname}: labels must lie in {bound} (foreground classes, the background "
                             f"excluded), got values in [{lo}, {hi}]")
