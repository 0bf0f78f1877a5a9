"""pad: pad an array with a constant or with values mirrored/repeated from its own border."""
import numpy

from kusari import backend
from kusari.function_node import FunctionNode

# modes whose padding copies elements of x, so each output element has one source element
_COPY_MODES = ("edge", "reflect", "symmetric", "wrap")


def _pad_widths(pad_width, ndim):
    widths = numpy.asarray(pad_width)
    if widths.dtype.kind not in "iu":
        raise TypeError(f"pad: pad_width must hold integers, got {pad_width!r}")
    try:
        widths = numpy.broadcast_to(widths, (ndim, 2))
    except ValueError:
        raise ValueError(f"pad: pad_width={pad_width!r} does not fit x with {ndim} dimensions "
                         "(give an int, a (before, after) pair, or one pair per axis)") from None
    if (widths < 0).any():
        raise ValueError(f"pad: pad_width={pad_width!r} must not be negative")
    return tuple((int(b), int(a)) for b, a in widths)


class Pad(FunctionNode):
    def __init__(self, pad_width, mode, constant_values):
        self._pad_width = pad_width
        self._mode = mode
        self._constant_values = constant_values

    def forward(self, inputs):
        x = inputs[0]
        self._widths = _pad_widths(self._pad_width, x.ndim)
        xp = backend.get_array_module(x)
        kwargs = {"constant_values": self._constant_values} if self._mode == "constant" else {}
        try:
            return xp.pad(x, self._widths, mode=self._mode, **kwargs),
        except ValueError as e:
            raise ValueError(f"pad: {e} (x.shape={x.shape}, pad_width={self._widths}, "
                             f"mode={self._mode!r})") from None

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.get_item import GetItemGrad, get_item
        gy = grad_outputs[0]
        shape = self.inputs[0].shape
        if self._mode == "constant":
            return get_item(gy, tuple(slice(b, b + n) for (b, _), n in zip(self._widths, shape))),
        # each padded element is a copy of one element of x: scatter-add the gradient back
        xp = backend.get_array_module(gy.array)
        source = [numpy.pad(numpy.arange(n), w, mode=self._mode) for n, w in zip(shape, self._widths)]
        index = tuple(xp.asarray(i) for i in numpy.ix_(*source))
        return GetItemGrad(index, shape).apply((gy,))


def pad(x, pad_width, mode, **keywords):
    """``x`` padded by ``pad_width`` elements on each side of each axis (``numpy.pad``).

    ``pad_width``: an int, a ``(before, after)`` pair, or one pair per axis. ``mode``:
    ``'constant'`` (fill with ``constant_values``, default 0), ``'edge'``, ``'reflect'``,
    ``'symmetric'`` or ``'wrap'``. Returns a Variable of shape ``x.shape[i] + before_i + after_i``.
    """
    if mode == "constant":
        constant_values = keywords.pop("constant_values", 0)
    elif mode in _COPY_MODES:
        constant_values = None
    else:
        raise ValueError(f"pad: mode={mode!r} is not supported; use 'constant' or one of "
                         f"{', '.join(repr(m) for m in _COPY_MODES)}")
    if keywords:
        raise TypeError(f"pad: unexpected keyword argument(s) {', '.join(sorted(keywords))} "
                        f"for mode={mode!r}")
    return Pad(pad_width, mode, constant_values).apply((x,))[0]
