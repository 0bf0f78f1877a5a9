"""SeparableASPP: atrous spatial pyramid pooling with separable convolutions, DeepLab v3+'s head
(ChainerCV's chainercv.links.model.deeplab.SeparableASPP)."""
import kusari
import kusari.functions as F
from kusari.vision.links.connection import Conv2DBNActiv, SeparableConv2DBNActiv


class SeparableASPP(kusari.Chain):
    """Five branches on one feature map, concatenated and projected by a 1x1 convolution::

        image pooling (global average, 1x1 conv, broadcast back) --+
        1x1 conv --------------------------------------------------+
        3x3 separable conv, dilation dilate_list[0] ---------------+--> concat --> 1x1 conv --> dropout
        3x3 separable conv, dilation dilate_list[1] ---------------+
        3x3 separable conv, dilation dilate_list[2] ---------------+

    Every convolution is followed by batch normalization and ReLU (the separable ones after both
    of their parts); the dropout acts in training mode only.

    Parameters
    ----------
    in_channels, out_channels : int
    dilate_list : sequence of 3 ints
        Dilations (and paddings) of the three separable convolutions.
    bn_kwargs : dict or None
        Keyword arguments of every batch normalization.

    Child links: ``image_pooling_conv``, ``conv1x1``, ``atrous1``..``atrous3``, ``proj``.
    Input ``(N, in_channels, H, W)``, output ``(N, out_channels, H, W)``.
    """

    def __init__(self, in_channels: int, out_channels: int, dilate_list=(12, 24, 36),
                 bn_kwargs: dict | None = None):
        if len(dilate_list) != 3:
            raise ValueError(f"SeparableASPP: dilate_list must hold 3 dilations, got {dilate_list!r}")
        super().__init__()
        with self.init_scope():
            self.image_pooling_conv = Conv2DBNActiv(in_channels, out_channels, 1, bn_kwargs=bn_kwargs)
            self.conv1x1 = Conv2DBNActiv(in_channels, out_channels, 1, bn_kwargs=bn_kwargs)
            for i, dilate in enumerate(dilate_list):
                setattr(self, f"atrous{i + 1}", SeparableConv2DBNActiv(
                    in_channels, out_channels, 3, 1, dilate, dilate, nobias=True, dw_activ=F.relu,
                    pw_activ=F.relu, bn_kwargs=bn_kwargs))
            self.proj = Conv2DBNActiv(out_channels * 5, out_channels, 1, bn_kwargs=bn_kwargs)

    def image_pooling(self, x):
        """The global branch: x (N, C, H, W) -> (N, out_channels, H, W), constant over H and W."""
        _, _, H, W = x.shape
        h = self.image_pooling_conv(F.average(x, axis=(2, 3), keepdims=True))
        return F.broadcast_to(h, h.shape[:2] + (H, W))

    def forward(self, x):
        """x: (N, in_channels, H, W) -> (N, out_channels, H, W)."""
        branches = [self.image_pooling(x), self.conv1x1(x), self.atrous1(x), self.atrous2(x), self.atrous3(x)]
        return F.dropout(self.proj(F.concat(branches, axis=1)))
