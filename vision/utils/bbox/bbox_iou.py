"""bbox_iou: intersection over union of every pair of two sets of boxes."""
import numpy

from kusari import backend


def check_bbox(fname: str, argname: str, bbox) -> None:
    """Raise ValueError unless ``bbox`` is an (R, 4) array of (y_min, x_min, y_max, x_max) with ends >= starts."""
    if bbox.ndim != 2 or bbox.shape[1] != 4:
        raise ValueError(f"{fname}: {argname} must have shape (R, 4) as (y_min, x_min, y_max, x_max), "
                         f"got shape={tuple(bbox.shape)}")
    inverted = bbox[:, 2:] < bbox[:, :2]
    if bool(inverted.any()):
        i = int(inverted.any(axis=1).nonzero()[0][0])
        raise ValueError(f"{fname}: {argname}[{i}] = {bbox[i].tolist()} has y_max < y_min or x_max < x_min "
                         f"(boxes are (y_min, x_min, y_max, x_max))")


def bbox_iou(bbox_a, bbox_b):
    """Intersection over union of every box of ``bbox_a`` with every box of ``bbox_b``.

    Boxes that do not overlap (touching edges included) have IoU 0; two empty boxes that do not
    overlap give 0 / 0 = nan, as in ChainerCV.

    Parameters
    ----------
    bbox_a : numpy.ndarray or cupy.ndarray, shape (N, 4)
        Boxes as (y_min, x_min, y_max, x_max), usually float32.
    bbox_b : array of the same module, shape (K, 4)

    Returns
    -------
    array, shape (N, K)
        ``iou[n, k]`` between ``bbox_a[n]`` and ``bbox_b[k]``, in the inputs' result dtype
        (float32 for float32 boxes).
    """
    check_bbox("bbox_iou", "bbox_a", bbox_a)
    check_bbox("bbox_iou", "bbox_b", bbox_b)
    return pairwise_iou(bbox_a, bbox_b)


def pairwise_iou(bbox_a, bbox_b):
    """``bbox_iou`` without the input checks (for callers that checked already)."""
    # ChainerCV's arithmetic in its order (intersection height * width, times "they overlap",
    # over area_a + area_b - intersection), so that IoUs at a threshold compare the same way;
    # one coordinate at a time, which avoids slow reductions over a length-2 axis
    height = _overlap(bbox_a[:, 0], bbox_a[:, 2], bbox_b[:, 0], bbox_b[:, 2])
    width = _overlap(bbox_a[:, 1], bbox_a[:, 3], bbox_b[:, 1], bbox_b[:, 3])
    area_i = height * width * ((height > 0) & (width > 0))
    area_a = (bbox_a[:, 2] - bbox_a[:, 0]) * (bbox_a[:, 3] - bbox_a[:, 1])
    area_b = (bbox_b[:, 2] - bbox_b[:, 0]) * (bbox_b[:, 3] - bbox_b[:, 1])
    with numpy.errstate(divide="ignore", invalid="ignore"):   # two empty boxes: 0 / 0
        return area_i / (area_a[:, None] + area_b - area_i)


def _overlap(start_a, end_a, start_b, end_b):
    """(N, K) length of the intersection of intervals along one axis (negative when disjoint)."""
    xp = backend.get_array_module(start_a)
    return xp.minimum(end_a[:, None], end_b) - xp.maximum(start_a[:, None], start_b)
