"""kusari.vision.links.model.resnet: ChainerCV's chainercv.links.model.resnet."""
from kusari.vision.links.model.resnet.resblock import Bottleneck  # NOQA
from kusari.vision.links.model.resnet.resblock import ResBlock  # NOQA
from kusari.vision.links.model.resnet.resnet import ResNet  # NOQA
from kusari.vision.links.model.resnet.resnet import ResNet101  # NOQA
from kusari.vision.links.model.resnet.resnet import ResNet152  # NOQA
from kusari.vision.links.model.resnet.resnet import ResNet50  # NOQA
