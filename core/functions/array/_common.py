"""Helpers shared by several array ops."""
import numpy

from kusari import backend


def add_at(out, index, values):
    """``out[index] += values`` in place, repeated indices adding up (``numpy.add.at``)."""
    if isinstance(out, numpy.ndarray):
        numpy.add.at(out, index, values)
    else:
        import cupyx
        cupyx.scatter_add(out, index, values)


def fill_missing(grad_outputs, shapes, dtype):
    """``grad_outputs`` with each None (an output that got no gradient) replaced by zeros of its shape."""
    xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
    return tuple(g if g is not None else xp.zeros(shape, dtype) for g, shape in zip(grad_outputs, shapes))
