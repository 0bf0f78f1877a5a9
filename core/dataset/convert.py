"""Batch converters: ``concat_examples`` (stack, optionally pad), ``to_device`` and the ``converter`` decorator."""
import functools

import numpy

from kusari import backend


class Converter:
    """Base of converters: ``converter(batch, device)`` turns a list of examples into model inputs.

    ``device`` is a :class:`kusari.backend.Device` or None (leave arrays where they are).
    """

    def __call__(self, batch, device):
        raise NotImplementedError(f"{type(self).__name__} must implement __call__(batch, device)")


class _FunctionConverter(Converter):
    """A Converter calling a function, with its ``device`` argument (2nd, or keyword) made a Device."""

    def __init__(self, func):
        if not callable(func):
            raise TypeError(f"converter: can only wrap a callable, got {type(func).__name__}")
        self.func = func
        functools.update_wrapper(self, func)

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            args = (args[0], _get_device(args[1])) + args[2:]
        elif "device" in kwargs:
            kwargs["device"] = _get_device(kwargs["device"])
        return self.func(*args, **kwargs)


def converter():
    """Decorator making a ``func(batch, device)`` a :class:`Converter`.

    The wrapped function receives ``device`` as a :class:`kusari.backend.Device` (or None) whatever
    the caller passed: an int (-1 host, N GPU), ``'@numpy'``, ``'@cupy:N'`` or a Device.

    >>> @kusari.dataset.converter()
    ... def to_float(batch, device):
    ...     return device.send(numpy.asarray(batch, dtype=numpy.float32))
    """
    return _FunctionConverter


def _get_device(device_spec):
    return None if device_spec is None else backend.get_device(device_spec)


def to_device(device, x):
    """Send ``x`` (an array, a Variable, or a list/tuple/dict of them) to ``device``; None leaves it.

    ``device`` is anything :func:`kusari.get_device` accepts: -1 or ``'@numpy'`` for the host, a GPU
    id or ``'@cupy:N'``, or a Device.
    """
    device = _get_device(device)
    return x if device is None else backend.to_device(device, x)


@converter()
def concat_examples(batch, device=None, padding=None):
    """Stack a list of examples into arrays along a new leading batch axis.

    Examples that are tuples give a tuple of arrays, dicts give a dict of arrays, anything else one
    array. Python numbers and lists become NumPy arrays first.

    Parameters
    ----------
    batch : list
        ``B`` examples, e.g. ``[(x_0, t_0), (x_1, t_1), ...]``.
    device
        where to send the results (see :func:`to_device`); None leaves them in place.
    padding
        None requires equal shapes. Otherwise every array of a position is padded with this
        value up to the elementwise maximum shape; for tuple (dict) examples a tuple (dict) gives
        one padding value per position (key).

    Returns
    -------
    An array of shape ``(B,) + shape``, or a tuple / dict of such arrays.

    >>> concat_examples([(numpy.array([1, 2]), 0), (numpy.array([3]), 1)], padding=-1)
    (array([[ 1,  2],
           [ 3, -1]]), array([0, 1]))
    """
    if len(batch) == 0:
        raise ValueError("concat_examples: the batch is empty")
    first = batch[0]
    if isinstance(first, tuple):
        if isinstance(padding, tuple):
            if len(padding) != len(first):
                raise ValueError(
                    f"concat_examples: padding has {len(padding)} entries but examples are tuples "
                    f"of {len(first)}")
        else:
            padding = (padding,) * len(first)
        return tuple(to_device(device, _concat([example[i] for example in batch], padding[i], i))
                     for i in range(len(first)))
    if isinstance(first, dict):
        if not isinstance(padding, dict):
            padding = {key: padding for key in first}
        return {key: to_device(device, _concat([example[key] for example in batch],
                                               padding.get(key), key))
                for key in first}
    return to_device(device, _concat(batch, padding, None))


def _concat(items, padding, where):
    if padding is None and type(items[0]) is numpy.ndarray:
        try:   # the common case, NumPy arrays of one shape, in one call; any other shape fails below
            return numpy.array(items)
        except ValueError:
            pass
    xp = backend.get_array_module(items[0])
    arrays = [item if isinstance(item, xp.ndarray) else xp.asarray(item) for item in items]
    shapes = {a.shape for a in arrays}
    if len(shapes) == 1:
        if xp is numpy:   # numpy.array stacks many small arrays about twice as fast as numpy.stack
            return numpy.array(arrays)
        with backend.using_device(backend.get_device_from_array(arrays[0])):
            return xp.stack(arrays)
    label = "" if where is None else f" at {where!r}"
    if padding is None:
        raise ValueError(
            f"concat_examples: arrays{label} have different shapes {sorted(shapes)}; "
            "pass padding= to pad them to a common shape")
    ndims = {len(s) for s in shapes}
    if len(ndims) != 1:
        raise ValueError(
            f"concat_examples: cannot pad arrays{label} of different ndim together "
            f"(shapes {sorted(shapes, key=len)})")
    shape = tuple(numpy.max(numpy.array(sorted(shapes)), axis=0).tolist())
    with backend.using_device(backend.get_device_from_array(arrays[0])):
        out = xp.full((len(arrays),) + shape, padding, dtype=arrays[0].dtype)
        for i, a in enumerate(arrays):
            out[(i,) + tuple(slice(n) for n in a.shape)] = a
    return out
