"""flatten: turn an array into a vector."""
from kusari.functions.array.reshape import reshape


def flatten(x):
    """``x`` as a 1-D Variable of ``x.size`` elements (C order)."""
    return reshape(x, (x.size,))
