"""kusari.vision.links: ChainerCV's chainercv.links."""
from kusari.vision.links.connection.conv_2d_activ import Conv2DActiv  # NOQA
from kusari.vision.links.connection.conv_2d_bn_activ import Conv2DBNActiv  # NOQA
from kusari.vision.links.connection.seblock import SEBlock  # NOQA
from kusari.vision.links.connection.separable_conv_2d_bn_activ import SeparableConv2DBNActiv  # NOQA

from kusari.vision.links.model.feature_predictor import FeaturePredictor  # NOQA
from kusari.vision.links.model.pickable_sequential_chain import PickableSequentialChain  # NOQA
from kusari.vision.links.model.pixelwise_softmax_classifier import PixelwiseSoftmaxClassifier  # NOQA

from kusari.vision.links.model.deeplab import DeepLabV3plusXception65  # NOQA
from kusari.vision.links.model.faster_rcnn.faster_rcnn_vgg import FasterRCNNVGG16  # NOQA

from kusari.vision.links.model.mobilenet import MobileNetV2  # NOQA
from kusari.vision.links.model.resnet import ResNet101  # NOQA
from kusari.vision.links.model.resnet import ResNet152  # NOQA
from kusari.vision.links.model.resnet import ResNet50  # NOQA
from kusari.vision.links.model.segnet.segnet_basic import SegNetBasic  # NOQA
from kusari.vision.links.model.senet import SEResNet101  # NOQA
from kusari.vision.links.model.senet import SEResNet152  # NOQA
from kusari.vision.links.model.senet import SEResNet50  # NOQA
from kusari.vision.links.model.senet import SEResNeXt101  # NOQA
from kusari.vision.links.model.senet import SEResNeXt50  # NOQA
from kusari.vision.links.model.vgg import VGG16  # NOQA

from kusari.vision.links.model.ssd import SSD300  # NOQA
from kusari.vision.links.model.ssd import SSD512  # NOQA
from kusari.vision.links.model.yolo import YOLOv2  # NOQA
from kusari.vision.links.model.yolo import YOLOv3  # NOQA
from kusari.vision.links.model.fpn import FasterRCNNFPNResNet101  # NOQA
from kusari.vision.links.model.fpn import FasterRCNNFPNResNet50  # NOQA
from kusari.vision.links.model.fpn import MaskRCNNFPNResNet101  # NOQA
from kusari.vision.links.model.fpn import MaskRCNNFPNResNet50  # NOQA
