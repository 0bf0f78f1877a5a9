"""ExpandedConv2D: MobileNetV2's inverted residual block (ChainerCV's
chainercv.links.model.mobilenet.ExpandedConv2D)."""
import functools

import kusari
import kusari.functions as F
from kusari.vision.links.model.mobilenet.tf_conv_2d_bn_activ import TFConv2DBNActiv
from kusari.vision.links.model.mobilenet.util import expand_input_by_factor

relu6 = functools.partial(F.clipped_relu, z=6.)


class ExpandedConv2D(kusari.Chain):
    """1x1 expansion (``expand``, ReLU6) -> 3x3 depthwise (``depthwise``, ReLU6) -> 1x1 linear
    projection (``project``), plus the input when the shapes agree.

    Parameters
    ----------
    in_channels, out_channels : int
    expansion_size : int or callable
        Channels inside the block, or a rule ``f(num_inputs=in_channels)`` (default: 6 times
        ``in_channels``, divisible by 8). The expansion layer exists only when it is larger than
        ``in_channels``.
    expand_pad, depthwise_pad, project_pad : int, tuple, 'SAME' or 'VALID'
        Padding of the three convolutions (see :class:`TFConvolution2D`).
    depthwise_stride, depthwise_ksize : int or tuple of ints
    initialW : initializer or None
    bn_kwargs : dict or None
        Keyword arguments of the batch normalizations.

    Input ``(N, in_channels, H, W)``, output ``(N, out_channels, H', W')``.
    """

    def __init__(self, in_channels: int, out_channels: int, expansion_size=expand_input_by_factor(6),
                 expand_pad="SAME", depthwise_stride=1, depthwise_ksize=3, depthwise_pad="SAME",
                 project_pad="SAME", initialW=None, bn_kwargs: dict | None = None):
        super().__init__()
        self.inner_size = (expansion_size(num_inputs=in_channels) if callable(expansion_size)
                           else expansion_size)
        with self.init_scope():
            depthwise_in_channels = in_channels
            if self.inner_size > in_channels:
                self.expand = TFConv2DBNActiv(in_channels, self.inner_size, ksize=1, pad=expand_pad,
                                              nobias=True, initialW=initialW, bn_kwargs=bn_kwargs,
                                              activ=relu6)
                depthwise_in_channels = self.inner_size
            self.depthwise = TFConv2DBNActiv(depthwise_in_channels, self.inner_size, ksize=depthwise_ksize,
                                             stride=depthwise_stride, pad=depthwise_pad, nobias=True,
                                             initialW=initialW, groups=depthwise_in_channels,
                                             bn_kwargs=bn_kwargs, activ=relu6)
            self.project = TFConv2DBNActiv(self.inner_size, out_channels, ksize=1, pad=project_pad,
                                           nobias=True, initialW=initialW, bn_kwargs=bn_kwargs, activ=None)

    def forward(self, x):
        """x: (N, in_channels, H, W) -> (N, out_channels, H', W')."""
        h = self.expand(x) if hasattr(self, "expand") else x
        h = self.project(self.depthwise(h))
        return h + x if h.shape == x.shape else h
