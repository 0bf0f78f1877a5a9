"""kusari.vision.links.connection: ChainerCV's chainercv.links.connection."""
from kusari.vision.links.connection.conv_2d_activ import Conv2DActiv  # NOQA
from kusari.vision.links.connection.conv_2d_bn_activ import Conv2DBNActiv  # NOQA
from kusari.vision.links.connection.seblock import SEBlock  # NOQA
from kusari.vision.links.connection.separable_conv_2d_bn_activ import SeparableConv2DBNActiv  # NOQA
