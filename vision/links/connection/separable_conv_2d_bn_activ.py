"""SeparableConv2DBNActiv: depthwise and pointwise convolutions, each normalized and activated
(ChainerCV's chainercv.links.SeparableConv2DBNActiv)."""
from typing import Callable

import kusari
import kusari.functions as F
import kusari.links as L
from kusari.vision.links.connection.conv_2d_bn_activ import batch_normalization


class SeparableConv2DBNActiv(kusari.Chain):
    """Depthwise conv --> BN --> dw_activ --> pointwise (1x1) conv --> BN --> pw_activ.

    Parameters
    ----------
    in_channels : int
        Channels of the input (not deferred: the depthwise convolution has one group per channel).
    out_channels : int
    ksize, stride, pad, dilate : int or tuple of two ints
        Of the depthwise convolution.
    nobias : bool
        Without the convolutions' biases.
    dw_initialW, pw_initialW : initializer, array or None
        Weights of the depthwise and the pointwise convolution.
    dw_initial_bias, pw_initial_bias : initializer, array or None
        Biases of the depthwise and the pointwise convolution (default 0; ChainerCV 0.13.1
        ignores these two arguments).
    dw_activ, pw_activ : callable or None
        Activations after each normalization (default identity and :func:`kusari.functions.relu`);
        None is the identity.
    bn_kwargs : dict
        Keyword arguments of both normalizations (see :class:`Conv2DBNActiv`).

    Child links: ``depthwise`` (W: ``(in_channels, 1, kh, kw)``), ``pointwise``
    (W: ``(out_channels, in_channels, 1, 1)``), ``dw_bn`` and ``pw_bn``.
    Input ``(N, in_channels, H, W)``, output ``(N, out_channels, H', W')``.
    """

    def __init__(self, in_channels: int, out_channels: int, ksize, stride=1, pad=0, dilate=1,
                 nobias=False, dw_initialW=None, pw_initialW=None, dw_initial_bias=None,
                 pw_initial_bias=None, dw_activ: Callable | None = F.identity,
                 pw_activ: Callable | None = F.relu, bn_kwargs: dict | None = None):
        if not isinstance(in_channels, int):
            raise TypeError(f"SeparableConv2DBNActiv: in_channels must be an int (it cannot be "
                            f"inferred), got {in_channels!r}")
        super().__init__()
        self.dw_activ = F.identity if dw_activ is None else dw_activ
        self.pw_activ = F.identity if pw_activ is None else pw_activ
        bn_kwargs = bn_kwargs or {}
        with self.init_scope():
            self.depthwise = L.Convolution2D(in_channels, in_channels, ksize, stride, pad, nobias,
                                             dw_initialW, dw_initial_bias, dilate=dilate,
                                             groups=in_channels)
            self.pointwise = L.Convolution2D(in_channels, out_channels, 1, nobias=nobias,
                                             initialW=pw_initialW, initial_bias=pw_initial_bias)
            self.dw_bn = batch_normalization(in_channels, bn_kwargs)
            self.pw_bn = batch_normalization(out_channels, bn_kwargs)

    def forward(self, x):
        """x: (N, in_channels, H, W) -> (N, out_channels, H', W')."""
        h = self.dw_activ(self.dw_bn(self.depthwise(x)))
        return self.pw_activ(self.pw_bn(self.pointwise(h)))
