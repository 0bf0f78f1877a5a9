"""Helpers shared by the distributions: a base for scalar events, parameter checking, value conversion, random draws."""
import numbers

import numpy

from kusari import backend, configuration, distribution
from kusari.static_graph import static_code
from kusari.variable import Variable, as_variable


def _is_scalar(v) -> bool:
    return isinstance(v, (numbers.Number, numpy.generic)) and not isinstance(v, bool)


def params(who: str, names: tuple, values: tuple, broadcast: bool = True) -> list:
    """The parameters ``values`` as Variables of one float dtype, broadcast to one shape.

    Python scalars take the dtype of the array parameters (``config.dtype`` if there are none).
    Raises TypeError for non-float or mixed dtypes, ValueError for shapes that do not broadcast.
    """
    arrays = [(n, v) for n, v in zip(names, values) if not _is_scalar(v)]
    for n, v in arrays:
        if getattr(v, "dtype", None) is None or v.dtype.kind != "f":
            raise TypeError(f"{who}: {n} must be a float array or Variable, got "
                            f"{type(v).__name__} of dtype {getattr(v, 'dtype', None)}")
    if arrays:
        dtype = arrays[0][1].dtype
        if any(v.dtype != dtype for _, v in arrays):
            got = ", ".join(f"{n}.dtype={v.dtype}" for n, v in arrays)
            raise TypeError(f"{who}: parameters must share one dtype, got {got}")
        xp = backend.get_array_module(arrays[0][1])
    else:
        dtype, xp = configuration.get_dtype(), numpy
    out = [as_variable(xp.asarray(v, dtype=dtype)) if _is_scalar(v) else as_variable(v)
           for v in values]
    if not broadcast:
        return out
    try:
        shape = numpy.broadcast_shapes(*(v.shape for v in out))
    except ValueError:
        got = ", ".join(f"{n}.shape={v.shape}" for n, v in zip(names, out))
        raise ValueError(f"{who}: parameter shapes do not broadcast: {got}") from None
    from kusari.functions import broadcast_to
    return [v if v.shape == shape else broadcast_to(v, shape) for v in out]


def value(who: str, x, like: Variable) -> Variable:
    """``x`` (a point of the sample space) as a Variable of ``like``'s dtype.

    Arrays and scalars are cast; a Variable of another dtype is refused (casting it would hide
    an upcast or a precision loss in the caller's graph).
    """
    if isinstance(x, Variable):
        if x.dtype != like.dtype:
            raise TypeError(f"{who}: x has dtype {x.dtype} but the parameters have {like.dtype}")
        return x
    xp = backend.get_array_module(like.array)
    return Variable(xp.asarray(x, dtype=like.dtype), requires_grad=False)


@static_code
def random_draws(sample, *args):
    """``sample(xp, *args)`` with ``xp`` the array module of ``args[0]`` (an array): a distribution's
    draws from its parameter arrays, made anew at every static_graph replay (array code between ops
    is not replayed; a static_code call is)."""
    return sample(backend.get_array_module(args[0]), *args)


@static_code
def standard_normal(like: Variable, shape: tuple):
    """Standard normal draws of ``shape`` in ``like``'s dtype and device (drawn anew at every
    static_graph replay)."""
    xp = backend.get_array_module(like.array)
    return xp.random.standard_normal(shape).astype(like.dtype, copy=False)


@static_code
def uniform_open(like: Variable, shape: tuple):
    """Uniform draws on the open interval (0, 1) of ``shape`` in ``like``'s dtype and device
    (drawn anew at every static_graph replay).

    Drawn in ``like.dtype`` and clipped, so the cast cannot round a draw onto 0 or 1 (which
    would make ``log(u)`` or ``log1p(-u)`` infinite).
    """
    xp = backend.get_array_module(like.array)
    finfo = numpy.finfo(like.dtype)
    u = xp.random.random(shape).astype(like.dtype, copy=False)
    return xp.clip(u, finfo.tiny, 1 - finfo.epsneg)


def constant(like: Variable, fill: float):
    """A non-differentiable Variable shaped and typed like ``like``, filled with ``fill``."""
    xp = backend.get_array_module(like.array)
    return Variable(xp.full(like.shape, fill, dtype=like.dtype), requires_grad=False)


class ScalarDistribution(distribution.Distribution):
    """Base of the distributions with scalar events whose parameters all have ``batch_shape``.

    Subclasses set ``_param_names`` (the attributes holding the parameters, already broadcast to
    one shape by ``params``) and ``_support``.
    """

    _param_names: tuple = ()
    _support = ""

    @property
    def batch_shape(self):
        return getattr(self, self._param_names[0]).shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {name: getattr(self, name) for name in self._param_names}

    @property
    def support(self):
        return self._support

    def _value(self, x) -> Variable:
        """``x`` as a Variable of the parameters' dtype (see ``value``)."""
        return value(type(self).__name__, x, getattr(self, self._param_names[0]))
