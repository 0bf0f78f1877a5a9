"""mask_iou: intersection over union of every pair of two sets of boolean masks."""
import numpy


def check_masks(fname: str, argname: str, mask) -> None:
    """Raise unless ``mask`` is an (R, H, W) boolean array."""
    if mask.dtype != bool:
        raise TypeError(f"{fname}: {argname} must be a boolean array, got dtype {mask.dtype} "
                        f"(shape={tuple(mask.shape)})")
    if mask.ndim != 3:
        raise ValueError(f"{fname}: {argname} must have shape (R, H, W), got shape={tuple(mask.shape)}")


def mask_iou(mask_a, mask_b):
    """Intersection over union of every mask of ``mask_a`` with every mask of ``mask_b``.

    Parameters
    ----------
    mask_a : numpy.ndarray or cupy.ndarray of bool, shape (N, H, W)
    mask_b : array of bool, shape (K, H, W)

    Returns
    -------
    array of float32, shape (N, K)
        ``iou[n, k]`` between ``mask_a[n]`` and ``mask_b[k]``; nan where both masks are empty.
    """
    check_masks("mask_iou", "mask_a", mask_a)
    check_masks("mask_iou", "mask_b", mask_b)
    if mask_a.shape[1:] != mask_b.shape[1:]:
        raise ValueError(f"mask_iou: mask_a and mask_b must share (H, W), got mask_a.shape={tuple(mask_a.shape)}, "
                         f"mask_b.shape={tuple(mask_b.shape)}")
    # pixel counts are exact in float64 (a product of two 0/1 matrices sums integers < 2**53)
    a = mask_a.reshape(len(mask_a), -1).astype(numpy.float64)
    b = mask_b.reshape(len(mask_b), -1).astype(numpy.float64)
    intersection = a @ b.T
    union = a.sum(axis=1)[:, None] + b.sum(axis=1) - intersection
    with numpy.errstate(divide="ignore", invalid="ignore"):
        return (intersection / union).astype(numpy.float32)
