"""The cache key of a static_graph call: its arguments' structure with every array replaced by its signature."""
import numpy

from kusari import backend
from kusari.variable import Variable


def flatten(obj, leaves: list, fname: str):
    """Hashable structure of ``obj`` with its Variables and arrays replaced by their signature
    (array type, shape, dtype, and for a Variable its ``requires_grad``); the Variables and
    arrays themselves are appended to ``leaves``, in order."""
    if isinstance(obj, Variable):
        leaves.append(obj)
        data = obj._data
        return ("v", type(data), data.shape, data.dtype, obj._requires_grad)
    if backend.is_array(obj):
        leaves.append(obj)
        return ("a", type(obj), obj.shape, obj.dtype)
    if isinstance(obj, (tuple, list)):
        return (type(obj), tuple([flatten(o, leaves, fname) for o in obj]))
    if isinstance(obj, dict):
        return (dict, tuple([(k, flatten(obj[k], leaves, fname)) for k in sorted(obj)]))
    try:
        hash(obj)
    except TypeError:
        raise TypeError(f"static_graph: {fname} got an unhashable argument of type "
                        f"{type(obj).__name__}; pass Variables, arrays, tuples/lists/dicts of them, "
                        "or hashable values (they become part of the cache key)") from None
    return obj


_EMPTY_KWARGS_KEY = flatten({}, [], "")


def signature(args: tuple, kwargs: dict, leaves: list, fname: str):
    """``flatten((args, kwargs), leaves, fname)``, computed directly when the arguments are plain
    Variables and NumPy arrays (the usual call)."""
    if not kwargs:
        sig = []
        for a in args:
            if isinstance(a, Variable):
                data = a._data
                sig.append(("v", type(data), data.shape, data.dtype, a._requires_grad))
            elif type(a) is numpy.ndarray:
                sig.append(("a", numpy.ndarray, a.shape, a.dtype))
            else:
                break
        else:
            leaves.extend(args)
            return (tuple, ((type(args), tuple(sig)), _EMPTY_KWARGS_KEY))
    return flatten((args, kwargs), leaves, fname)
