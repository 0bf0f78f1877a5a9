"""kusari.vision.experimental.links: ChainerCV's chainercv.experimental.links."""
from kusari.vision.experimental.links.model.pspnet.pspnet import PSPNetResNet101  # NOQA
from kusari.vision.experimental.links.model.pspnet.pspnet import PSPNetResNet50  # NOQA
from kusari.vision.experimental.links.model.yolo import YOLOv2Tiny  # NOQA
