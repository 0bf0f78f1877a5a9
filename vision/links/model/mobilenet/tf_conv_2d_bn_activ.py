"""TFConv2DBNActiv: Conv2DBNActiv whose convolution pads like TensorFlow (ChainerCV's
chainercv.links.model.mobilenet.TFConv2DBNActiv)."""
import kusari.functions as F
from kusari.vision.links.connection import Conv2DBNActiv
from kusari.vision.links.model.mobilenet.tf_convolution_2d import TFConvolution2D


class TFConv2DBNActiv(Conv2DBNActiv):
    """TFConvolution2D --> BatchNormalization --> activation.

    The arguments are :class:`~kusari.vision.links.connection.Conv2DBNActiv`'s, with ``pad``
    also accepting TensorFlow's 'SAME' (the default) and 'VALID'. Child links ``conv`` (a
    :class:`TFConvolution2D`, whose weights are ``conv/conv/W``) and ``bn``.
    """

    conv_link = TFConvolution2D

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad="SAME", dilate=1, groups=1,
                 nobias=True, initialW=None, initial_bias=None, activ=F.relu, bn_kwargs: dict | None = None):
        super().__init__(in_channels, out_channels, ksize, stride, pad, dilate, groups, nobias, initialW,
                         initial_bias, activ, bn_kwargs)
