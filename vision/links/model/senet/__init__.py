"""kusari.vision.links.model.senet: ChainerCV's chainercv.links.model.senet."""
from kusari.vision.links.model.senet.se_resnet import SEResNet  # NOQA
from kusari.vision.links.model.senet.se_resnet import SEResNet101  # NOQA
from kusari.vision.links.model.senet.se_resnet import SEResNet152  # NOQA
from kusari.vision.links.model.senet.se_resnet import SEResNet50  # NOQA
from kusari.vision.links.model.senet.se_resnext import SEResNeXt  # NOQA
from kusari.vision.links.model.senet.se_resnext import SEResNeXt101  # NOQA
from kusari.vision.links.model.senet.se_resnext import SEResNeXt50  # NOQA
