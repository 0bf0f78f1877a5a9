"""mask_to_bbox: the tightest box around each boolean mask."""
import numpy

from kusari import backend
from kusari.vision.utils.mask.mask_iou import check_masks


def mask_to_bbox(mask):
    """The bounding box of the True pixels of each mask.

    Parameters
    ----------
    mask : numpy.ndarray or cupy.ndarray of bool, shape (R, H, W)

    Returns
    -------
    array of float32, shape (R, 4)
        (y_min, x_min, y_max, x_max) with exclusive ends (``y_max`` is one past the last row);
        all zeros for an empty mask.
    """
    check_masks("mask_to_bbox", "mask", mask)
    xp = backend.get_array_module(mask)
    n, h, w = mask.shape
    if h == 0 or w == 0:
        return xp.zeros((n, 4), numpy.float32)
    rows = mask.any(axis=2)
    cols = mask.any(axis=1)
    bbox = xp.stack([rows.argmax(axis=1), cols.argmax(axis=1),
                     h - rows[:, ::-1].argmax(axis=1), w - cols[:, ::-1].argmax(axis=1)], axis=1)
    return xp.where(rows.any(axis=1)[:, None], bbox, 0).astype(numpy.float32)
