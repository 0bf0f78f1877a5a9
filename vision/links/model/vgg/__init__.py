"""kusari.vision.links.model.vgg: ChainerCV's chainercv.links.model.vgg."""
from kusari.vision.links.model.vgg.vgg16 import VGG16  # NOQA
