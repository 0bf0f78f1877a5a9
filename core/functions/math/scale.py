"""scale: multiply by an array broadcast along chosen axes (Caffe's Scale layer)."""
from kusari.functions.math._elementwise import align_to


def scale(x, y, axis=1):
    """``x * y`` with ``y``'s axes aligned to ``x``'s starting at ``axis``.

    ``x``: float array, e.g. ``(N, C, H, W)``; ``y``: float array of the same dtype whose shape
    equals ``x.shape[axis:axis + y.ndim]``, e.g. ``(C,)`` with ``axis=1``. Returns ``x.shape``.
    """
    x, y = align_to("scale", x, y, axis)
    return x * y
