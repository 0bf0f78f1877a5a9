"""ResBlock and Bottleneck: the stages and residual units of ResNet, SE-ResNet and SE-ResNeXt
(ChainerCV's chainercv.links.model.resnet.ResBlock / Bottleneck)."""
import kusari
import kusari.functions as F
from kusari.vision.links.connection import Conv2DBNActiv, SEBlock
from kusari.vision.links.model.pickable_sequential_chain import PickableSequentialChain


class ResBlock(PickableSequentialChain):
    """A ResNet stage: a Bottleneck with a projection shortcut (``a``), then ``n_layer - 1`` plain ones
    (``b1``, ``b2``, ...).

    Parameters
    ----------
    n_layer : int
        Bottlenecks in the stage.
    in_channels : int or None
        Channels of the input (None: inferred from the first input).
    mid_channels : int
        Channels inside each bottleneck.
    out_channels : int
        Channels of the output.
    stride : int or tuple of ints
        Of the first bottleneck (its shortcut too).
    dilate : int or tuple of ints
        Dilation of every bottleneck's 3x3 convolution.
    groups : int
        Groups of every bottleneck's 3x3 convolution (32 in ResNeXt).
    initialW : initializer or None
        Of every convolution.
    bn_kwargs : dict or None
        Keyword arguments of every batch normalization.
    stride_first : bool
        Stride in the first (1x1) convolution (Kaiming He's ResNet) instead of the second (3x3,
        Facebook's).
    add_seblock : bool
        A squeeze-and-excitation block (``se``) at the end of each residual branch.

    Input ``(N, in_channels, H, W)``, output ``(N, out_channels, H / stride, W / stride)``.
    """

    def __init__(self, n_layer: int, in_channels, mid_channels: int, out_channels: int, stride,
                 dilate=1, groups: int = 1, initialW=None, bn_kwargs: dict | None = None,
                 stride_first: bool = False, add_seblock: bool = False):
        super().__init__()
        with self.init_scope():
            self.a = Bottleneck(in_channels, mid_channels, out_channels, stride, dilate, groups,
                                initialW, bn_kwargs=bn_kwargs, residual_conv=True,
                                stride_first=stride_first, add_seblock=add_seblock)
            for i in range(1, n_layer):
                setattr(self, f"b{i}", Bottleneck(out_channels, mid_channels, out_channels, 1, dilate,
                                                  groups, initialW, bn_kwargs=bn_kwargs,
                                                  add_seblock=add_seblock))


class Bottleneck(kusari.Chain):
    """1x1 conv -> 3x3 conv -> 1x1 conv (each with batch normalization; ReLU after the first two),
    optionally an SE block, plus the shortcut, then ReLU.

    Parameters
    ----------
    in_channels : int or None
    mid_channels, out_channels : int
    stride : int or tuple of ints
    dilate : int or tuple of ints
        Dilation (and padding) of the 3x3 convolution.
    groups : int
        Groups of the 3x3 convolution.
    initialW : initializer or None
    bn_kwargs : dict or None
    residual_conv : bool
        A 1x1 convolution with batch normalization (``residual_conv``) on the shortcut; without
        it the input is added as it is.
    stride_first : bool
        Stride in ``conv1`` instead of ``conv2``.
    add_seblock : bool
        A squeeze-and-excitation block ``se`` after ``conv3``.

    Child links ``conv1``, ``conv2``, ``conv3`` (Conv2DBNActiv), then ``se`` and
    ``residual_conv`` when present.
    """

    def __init__(self, in_channels, mid_channels: int, out_channels: int, stride=1, dilate=1,
                 groups: int = 1, initialW=None, bn_kwargs: dict | None = None,
                 residual_conv: bool = False, stride_first: bool = False, add_seblock: bool = False):
        first_stride, second_stride = (stride, 1) if stride_first else (1, stride)
        super().__init__()
        with self.init_scope():
            self.conv1 = Conv2DBNActiv(in_channels, mid_channels, 1, first_stride, 0, nobias=True,
                                       initialW=initialW, bn_kwargs=bn_kwargs)
            self.conv2 = Conv2DBNActiv(mid_channels, mid_channels, 3, second_stride, dilate, dilate,
                                       groups, nobias=True, initialW=initialW, bn_kwargs=bn_kwargs)
            self.conv3 = Conv2DBNActiv(mid_channels, out_channels, 1, 1, 0, nobias=True,
                                       initialW=initialW, activ=None, bn_kwargs=bn_kwargs)
            if add_seblock:
                self.se = SEBlock(out_channels)
            if residual_conv:
                self.residual_conv = Conv2DBNActiv(in_channels, out_channels, 1, stride, 0,
                                                   nobias=True, initialW=initialW, activ=None,
                                                   bn_kwargs=bn_kwargs)

    def forward(self, x):
        """x: (N, in_channels, H, W) -> (N, out_channels, H', W')."""
        h = self.conv3(self.conv2(self.conv1(x)))
        if hasattr(self, "se"):
            h = self.se(h)
        residual = self.residual_conv(x) if hasattr(self, "residual_conv") else x
        return F.relu(h + residual)
