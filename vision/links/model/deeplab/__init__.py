"""kusari.vision.links.model.deeplab: ChainerCV's chainercv.links.model.deeplab (DeepLab v3+)."""
from kusari.vision.links.model.deeplab.aspp import SeparableASPP  # NOQA
from kusari.vision.links.model.deeplab.deeplab_v3_plus import Decoder  # NOQA
from kusari.vision.links.model.deeplab.deeplab_v3_plus import DeepLabV3plus  # NOQA
from kusari.vision.links.model.deeplab.deeplab_v3_plus import DeepLabV3plusXception65  # NOQA
from kusari.vision.links.model.deeplab.xception import Xception65  # NOQA
from kusari.vision.links.model.deeplab.xception import XceptionBlock  # NOQA
