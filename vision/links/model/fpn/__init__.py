"""kusari.vision.links.model.fpn: Feature Pyramid Networks' Faster R-CNN and Mask R-CNN (ChainerCV's
chainercv.links.model.fpn)."""
from kusari.vision.links.model.fpn.bbox_head import bbox_head_loss_post  # NOQA
from kusari.vision.links.model.fpn.bbox_head import bbox_head_loss_pre  # NOQA
from kusari.vision.links.model.fpn.bbox_head import BboxHead  # NOQA
from kusari.vision.links.model.fpn.faster_rcnn import FasterRCNN  # NOQA
from kusari.vision.links.model.fpn.faster_rcnn_fpn_resnet import FasterRCNNFPNResNet  # NOQA
from kusari.vision.links.model.fpn.faster_rcnn_fpn_resnet import FasterRCNNFPNResNet101  # NOQA
from kusari.vision.links.model.fpn.faster_rcnn_fpn_resnet import FasterRCNNFPNResNet50  # NOQA
from kusari.vision.links.model.fpn.faster_rcnn_fpn_resnet import MaskRCNNFPNResNet101  # NOQA
from kusari.vision.links.model.fpn.faster_rcnn_fpn_resnet import MaskRCNNFPNResNet50  # NOQA
from kusari.vision.links.model.fpn.fpn import FPN  # NOQA
from kusari.vision.links.model.fpn.mask_head import mask_head_loss_post  # NOQA
from kusari.vision.links.model.fpn.mask_head import mask_head_loss_pre  # NOQA
from kusari.vision.links.model.fpn.mask_head import MaskHead  # NOQA
from kusari.vision.links.model.fpn.mask_utils import mask_to_segm  # NOQA
from kusari.vision.links.model.fpn.mask_utils import segm_to_mask  # NOQA
from kusari.vision.links.model.fpn.rpn import RPN  # NOQA
from kusari.vision.links.model.fpn.rpn import rpn_loss  # NOQA
