"""Xception65, the backbone of DeepLab v3+ as TensorFlow's DeepLab builds it, and its XceptionBlock
(ChainerCV's chainercv.links.model.deeplab.Xception65 / XceptionBlock)."""
import numpy

import kusari
import kusari.functions as F
from kusari.vision.links.connection import Conv2DBNActiv, SeparableConv2DBNActiv

SKIP_TYPES = ("conv", "sum", "none")
N_MIDDLE_BLOCK = 16


def _activation(activ):
    return F.identity if activ is None else activ


class XceptionBlock(kusari.Chain):
    """Three separable convolutions and a skip connection.

    Parameters
    ----------
    in_channels : int
    depthlist : sequence of 3 ints
        Output channels of the three separable convolutions.
    stride : int or tuple of ints
        Of the third separable convolution (and of the ``'conv'`` skip).
    dilate : int or tuple of ints
        Of the three depthwise convolutions (their padding too).
    skip_type : {'conv', 'sum', 'none'}
        The skip connection: a 1x1 convolution with batch normalization (``conv``), the input
        itself, or none.
    activ_first : bool
        ReLU on the input (pre-activation); otherwise ReLU on the output.
    bn_kwargs : dict or None
        Keyword arguments of every batch normalization.
    dw_activ_list, pw_activ_list : sequence of 3 callables or None
        The activations after each separable convolution's depthwise and pointwise parts (None:
        identity); default ``[None, None, None]`` and ``[relu, relu, None]``.

    ``forward(x)`` returns ``(h, separable2)``: the output and the second separable convolution's
    output before its pointwise activation (DeepLab's low-level feature).
    Child links: ``separable1``, ``separable2``, ``separable3`` (SeparableConv2DBNActiv) and ``conv``
    (Conv2DBNActiv) for ``skip_type='conv'``.
    """

    def __init__(self, in_channels: int, depthlist, stride=1, dilate=1, skip_type: str = "conv",
                 activ_first: bool = True, bn_kwargs: dict | None = None, dw_activ_list=None,
                 pw_activ_list=None):
        if skip_type not in SKIP_TYPES:
            raise ValueError(f"XceptionBlock: skip_type must be one of {SKIP_TYPES}, got {skip_type!r}")
        if len(depthlist) != 3:
            raise ValueError(f"XceptionBlock: depthlist must hold 3 channel counts, got {depthlist!r}")
        dw_activ_list = [None, None, None] if dw_activ_list is None else list(dw_activ_list)
        pw_activ_list = [F.relu, F.relu, None] if pw_activ_list is None else list(pw_activ_list)
        super().__init__()
        self.skip_type = skip_type
        self.activ_first = activ_first
        self.separable2_activ = _activation(pw_activ_list[1])
        # separable2's pointwise activation is applied in forward, after its output is kept
        pw_activ_list[1] = F.identity
        channels = [in_channels] + list(depthlist)
        strides = [1, 1, stride]
        with self.init_scope():
            for i in range(3):
                setattr(self, f"separable{i + 1}", SeparableConv2DBNActiv(
                    channels[i], channels[i + 1], 3, strides[i], dilate, dilate, nobias=True,
                    bn_kwargs=bn_kwargs, dw_activ=dw_activ_list[i], pw_activ=pw_activ_list[i]))
            if skip_type == "conv":
                self.conv = Conv2DBNActiv(in_channels, depthlist[2], 1, activ=F.identity, nobias=True,
                                          stride=stride, bn_kwargs=bn_kwargs)

    def forward(self, x):
        """x: (N, in_channels, H, W) -> (h (N, depthlist[2], H', W'), separable2 (N, depthlist[1], H, W))."""
        h = F.relu(x) if self.activ_first else x
        separable2 = self.separable2(self.separable1(h))
        h = self.separable3(self.separable2_activ(separable2))
        if self.skip_type == "conv":
            h = h + self.conv(x)
        elif self.skip_type == "sum":
            h = h + x
        if not self.activ_first:
            h = F.relu(h)
        return h, separable2


class Xception65(kusari.Chain):
    """Xception-65 as DeepLab v3+'s feature extractor (TensorFlow's research/deeplab variant).

    Entry flow (two 3x3 convolutions, three blocks of stride 2, 2 and 1), sixteen middle-flow
    blocks and two exit-flow blocks, dilated instead of strided after the entry flow: the output
    stride is 8. ``forward(x)`` returns ``(lowlevel, highlevel)``: the second entry block's
    ``separable2`` output ``(N, 256, H/4, W/4)`` and the last block's output ``(N, 2048, H/8, W/8)``
    (sizes rounded up).

    Inputs are images scaled to [-1, 1]; ``mean`` (127.5 per channel) is what padding fills with
    before that scaling (:meth:`DeepLabV3plus.prepare`).

    Parameters
    ----------
    bn_kwargs : dict or None
        Keyword arguments of every batch normalization.

    Child links: ``entryflow_conv1``, ``entryflow_conv2``, ``entryflow_block1``..``3``,
    ``middleflow_block1``..``16``, ``exitflow_block1``, ``exitflow_block2``.
    """

    mean = numpy.full((3, 1, 1), 127.5, dtype=numpy.float32)

    def __init__(self, bn_kwargs: dict | None = None):
        super().__init__()
        relus = [F.relu, F.relu, F.relu]
        with self.init_scope():
            self.entryflow_conv1 = Conv2DBNActiv(3, 32, 3, 2, 1, bn_kwargs=bn_kwargs)
            self.entryflow_conv2 = Conv2DBNActiv(32, 64, 3, 1, 1, bn_kwargs=bn_kwargs)
            self.entryflow_block1 = XceptionBlock(64, [128, 128, 128], stride=2, bn_kwargs=bn_kwargs)
            self.entryflow_block2 = XceptionBlock(128, [256, 256, 256], stride=2, bn_kwargs=bn_kwargs)
            self.entryflow_block3 = XceptionBlock(256, [728, 728, 728], stride=1, bn_kwargs=bn_kwargs)
            for i in range(1, N_MIDDLE_BLOCK + 1):
                setattr(self, f"middleflow_block{i}", XceptionBlock(
                    728, [728, 728, 728], stride=1, dilate=2, skip_type="sum", bn_kwargs=bn_kwargs))
            self.exitflow_block1 = XceptionBlock(728, [728, 1024, 1024], stride=1, dilate=2,
                                                 bn_kwargs=bn_kwargs)
            self.exitflow_block2 = XceptionBlock(1024, [1536, 1536, 2048], stride=1, dilate=4,
                                                 skip_type="none", activ_first=False, bn_kwargs=bn_kwargs,
                                                 dw_activ_list=relus, pw_activ_list=relus)

    def forward(self, x):
        """x: (N, 3, H, W) -> (lowlevel (N, 256, H/4, W/4), highlevel (N, 2048, H/8, W/8))."""
        h = self.entryflow_conv2(self.entryflow_conv1(x))
        h, _ = self.entryflow_block1(h)
        h, lowlevel = self.entryflow_block2(h)
        h, _ = self.entryflow_block3(h)
        for i in range(1, N_MIDDLE_BLOCK + 1):
            h, _ = self[f"middleflow_block{i}"](h)
        h, _ = self.exitflow_block1(h)
        highlevel, _ = self.exitflow_block2(h)
        return lowlevel, highlevel
