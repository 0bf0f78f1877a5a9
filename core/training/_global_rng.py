"""Save and restore the global random generators inside a snapshot: NumPy's RandomState (dropout,
the iterators' shuffles) and Python's ``random`` (kusari.vision's random flips and crops)."""
import random

import numpy


def serialize_global_rng(serializer):
    """Save the global MT19937 state through ``serializer``, or load it back into ``numpy.random``.

    Loading a snapshot without this state (e.g. one written by Chainer) leaves the generator as is.
    """
    name, keys, pos, has_gauss, cached = numpy.random.get_state()
    keys = serializer("keys", None if serializer.is_loading else keys)
    if keys is None:
        return
    pos = int(serializer("pos", int(pos)))
    has_gauss = int(serializer("has_gauss", int(has_gauss)))
    cached = float(serializer("cached_gaussian", float(cached)))
    if serializer.is_loading:
        numpy.random.set_state((name, numpy.asarray(keys, numpy.uint32), pos, has_gauss, cached))


def serialize_python_rng(serializer):
    """Save Python's global ``random`` state through ``serializer``, or load it back.

    Loading a snapshot without this state (e.g. one written by Chainer) leaves the generator as is.
    """
    version, internal, gauss_next = random.getstate()
    internal = serializer("internal", None if serializer.is_loading else numpy.asarray(internal, numpy.uint32))
    if internal is None:
        return
    version = int(serializer("version", version))
    has_gauss = int(serializer("has_gauss", int(gauss_next is not None)))
    gauss = float(serializer("gauss_next", 0.0 if gauss_next is None else gauss_next))
    if serializer.is_loading:
        random.setstate((version, tuple(int(v) for v in numpy.asarray(internal)), gauss if has_gauss else None))
