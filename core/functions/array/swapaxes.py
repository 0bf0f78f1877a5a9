"""swapaxes: exchange two axes of an array."""
from kusari import utils
from kusari.functions.array.transpose import transpose


def swapaxes(x, axis1, axis2):
    """``x`` with axes ``axis1`` and ``axis2`` interchanged (same elements, permuted shape)."""
    ndim = len(x.shape)
    a = utils.normalize_axis("swapaxes", axis1, ndim)[0]
    b = utils.normalize_axis("swapaxes", axis2, ndim)[0]
    axes = list(range(ndim))
    axes[a], axes[b] = b, a
    return transpose(x, axes)
