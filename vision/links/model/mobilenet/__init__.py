"""kusari.vision.links.model.mobilenet: ChainerCV's chainercv.links.model.mobilenet (after 0.13.1)."""
from kusari.vision.links.model.mobilenet.expanded_conv_2d import ExpandedConv2D  # NOQA
from kusari.vision.links.model.mobilenet.mobilenet_v2 import MobileNetV2  # NOQA
from kusari.vision.links.model.mobilenet.tf_conv_2d_bn_activ import TFConv2DBNActiv  # NOQA
from kusari.vision.links.model.mobilenet.tf_convolution_2d import TFConvolution2D  # NOQA
