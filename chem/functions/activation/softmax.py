"""softmax with an optional 0/1 mask: masked entries get (almost) zero probability."""
import kusari
import kusari.functions as F


def softmax(x, axis: int = 1, mask=None, mask_value: float = 1e10):
    """Softmax along ``axis`` of ``x + (mask - 1) * mask_value``.

    Parameters
    ----------
    x : Variable or array, any shape, float dtype
    axis : int
        Axis of the softmax.
    mask : Variable, array or None
        Same shape as ``x``; 1 marks a real entry and 0 a padded one. None masks nothing.
        A mask array of another dtype (int, bool) is cast to ``x``'s dtype.
    mask_value : float
        How far masked entries are pushed down before the softmax.

    Returns
    -------
    Variable
        Same shape and dtype as ``x``; each slice along ``axis`` sums to 1.
    """
    if mask is None:
        return F.softmax(x, axis=axis)
    if x.shape != mask.shape:
        raise ValueError(f"softmax: x and mask must have the same shape, got x.shape={x.shape}, "
                         f"mask.shape={mask.shape}")
    if not isinstance(mask, kusari.Variable):
        mask = mask.astype(x.dtype, copy=False)
    return F.softmax(x + (mask - 1.0) * mask_value, axis=axis)
