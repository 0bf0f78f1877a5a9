"""squeeze: remove size-1 axes."""
from kusari import utils
from kusari.functions.array.reshape import reshape


def squeeze(x, axis=None):
    """``x`` without its size-1 axes (all of them, or those listed in ``axis``).

    ``x``: array of shape ``s``; each axis in ``axis`` (an int or a tuple) must have size 1.
    Returns a Variable of ``s`` with those axes removed.
    """
    shape = tuple(x.shape)
    if axis is None:
        axes = tuple(i for i, s in enumerate(shape) if s == 1)
    else:
        axes = utils.normalize_axis("squeeze", axis, len(shape))
        for a in axes:
            if shape[a] != 1:
                raise ValueError(f"squeeze: cannot squeeze axis {a} of x with shape {shape}: "
                                 f"its size is {shape[a]}, not 1")
    return reshape(x, tuple(s for i, s in enumerate(shape) if i not in axes))
