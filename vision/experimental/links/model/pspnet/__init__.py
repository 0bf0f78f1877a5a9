"""kusari.vision.experimental.links.model.pspnet: ChainerCV's chainercv.experimental.links.model.pspnet."""
from kusari.vision.experimental.links.model.pspnet.pspnet import PSPNet  # NOQA
from kusari.vision.experimental.links.model.pspnet.pspnet import PSPNetResNet101  # NOQA
from kusari.vision.experimental.links.model.pspnet.pspnet import PSPNetResNet50  # NOQA
from kusari.vision.experimental.links.model.pspnet.transforms import convolution_crop  # NOQA
