"""Save and restore NumPy's global RandomState (used e.g. by dropout) inside a snapshot."""
import numpy


def serialize_global_rng(serializer):
    """Save the global MT19937 state through ``serializer``, or load it back into ``numpy.random``."""
    name, keys, pos, has_gauss, cached = numpy.random.get_state()
    keys = serializer("keys", keys if not serializer.is_loading else None)
    pos = int(serializer("pos", int(pos)))
    has_gauss = int(serializer("has_gauss", int(has_gauss)))
    cached = float(serializer("cached_gaussian", float(cached)))
    if serializer.is_loading:
        numpy.random.set_state((name, numpy.asarray(keys, numpy.uint32), pos, has_gauss, cached))
