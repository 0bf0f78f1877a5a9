"""kusari.vision.experimental.links: ChainerCV's chainercv.experimental.links."""
from kusari.vision.experimental.links.model.pspnet.pspnet import PSPNetResNet101  # NOQA
from kusari.vision.experimental.links.model.pspnet.pspnet import PSPNetResNet50  # NOQA
from kusari.vision.experimental.links.model.fcis.fcis_resnet101 import FCISResNet101  # NOQA
from kusari.vision.experimental.links.model.fcis.fcis_train_chain import FCISTrainChain  # NOQA
from kusari.vision.experimental.links.model.yolo import YOLOv2Tiny  # NOQA
