"""Conv2DActiv: a 2-d convolution followed by an activation (ChainerCV's chainercv.links.Conv2DActiv)."""
from typing import Callable

import kusari
import kusari.functions as F
import kusari.links as L


class Conv2DActiv(kusari.Chain):
    """Convolution2D --> activation.

    The arguments are those of :class:`kusari.links.Convolution2D` plus ``activ``;
    ``Conv2DActiv(out_channels, ksize)`` and ``Conv2DActiv(None, out_channels, ksize)`` defer
    ``in_channels`` to the first call.

    Parameters
    ----------
    in_channels : int or None
        Channels of the input; None infers them from the first input.
    out_channels : int
    ksize, stride, pad, dilate : int or tuple of two ints
    nobias : bool
        Without the bias term ``conv/b``.
    initialW, initial_bias : initializer, array or None
    activ : callable or None
        Applied to the convolution's output (default :func:`kusari.functions.relu`); None is
        the identity.

    Child link: ``conv`` (W: ``(out_channels, in_channels, kh, kw)``). Input ``(N, C, H, W)``,
    output ``(N, out_channels, H', W')``.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, dilate=1,
                 nobias=False, initialW=None, initial_bias=None,
                 activ: Callable | None = F.relu):
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        super().__init__()
        self.activ = activ
        with self.init_scope():
            self.conv = L.Convolution2D(in_channels, out_channels, ksize, stride, pad, nobias,
                                        initialW, initial_bias, dilate=dilate)

    def forward(self, x):
        """x: (N, C, H, W) -> (N, out_channels, H', W')."""
        h = self.conv(x)
        return h if self.activ is None else self.activ(h)
