"""Save and restore NumPy's global RandomState (used e.g. by dropout) inside a snapshot."""
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
