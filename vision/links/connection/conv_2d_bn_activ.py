"""Conv2DBNActiv: convolution, batch normalization, activation (ChainerCV's chainercv.links.Conv2DBNActiv)."""
from typing import Callable

import kusari
import kusari.functions as F
import kusari.links as L


def batch_normalization(size: int, bn_kwargs: dict) -> kusari.Link:
    """The normalization link of the ``*BNActiv`` blocks: BatchNormalization(size, **bn_kwargs).

    With a ``comm`` key (a communicator) it is the multi-node form,
    ``kusari.distributed.links.MultiNodeBatchNormalization``, as in ChainerCV with ChainerMN.
    """
    if "comm" in bn_kwargs:
        from kusari.distributed.links import MultiNodeBatchNormalization
        return MultiNodeBatchNormalization(size, **bn_kwargs)
    return L.BatchNormalization(size, **bn_kwargs)


class Conv2DBNActiv(kusari.Chain):
    """Convolution2D --> BatchNormalization --> activation.

    The arguments are those of :class:`kusari.links.Convolution2D` plus ``activ`` and
    ``bn_kwargs``; unlike Convolution2D, ``nobias`` defaults to True (the normalization's
    ``beta`` is the bias). ``Conv2DBNActiv(out_channels, ksize)`` and
    ``Conv2DBNActiv(None, out_channels, ksize)`` defer ``in_channels`` to the first call.

    Parameters
    ----------
    in_channels : int or None
        Channels of the input; None infers them from the first input.
    out_channels : int
    ksize, stride, pad, dilate : int or tuple of two ints
    groups : int
        Grouped convolution (1: an ordinary one).
    nobias : bool
    initialW, initial_bias : initializer, array or None
    activ : callable or None
        Applied last (default :func:`kusari.functions.relu`); None is the identity.
    bn_kwargs : dict
        Keyword arguments of :class:`kusari.links.BatchNormalization`; a ``comm`` entry selects
        the multi-node batch normalization.

    Child links: ``conv`` (of the class attribute ``conv_link``, :class:`kusari.links.Convolution2D`)
    and ``bn``. Input ``(N, C, H, W)``, output ``(N, out_channels, H', W')``.
    """

    conv_link = L.Convolution2D

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, dilate=1, groups=1,
                 nobias=True, initialW=None, initial_bias=None,
                 activ: Callable | None = F.relu, bn_kwargs: dict | None = None):
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        super().__init__()
        self.activ = activ
        with self.init_scope():
            self.conv = self.conv_link(in_channels, out_channels, ksize, stride, pad, nobias,
                                       initialW, initial_bias, dilate=dilate, groups=groups)
            self.bn = batch_normalization(out_channels, bn_kwargs or {})

    def forward(self, x):
        """x: (N, C, H, W) -> (N, out_channels, H', W')."""
        h = self.bn(self.conv(x))
        return h if self.activ is None else self.activ(h)
