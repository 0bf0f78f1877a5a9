"""kusari.vision.links.model.faster_rcnn: ChainerCV's chainercv.links.model.faster_rcnn (Faster R-CNN on VGG-16,
its building blocks and training targets)."""
from kusari.vision.links.model.faster_rcnn.faster_rcnn import FasterRCNN  # NOQA
from kusari.vision.links.model.faster_rcnn.faster_rcnn_train_chain import FasterRCNNTrainChain  # NOQA
from kusari.vision.links.model.faster_rcnn.faster_rcnn_vgg import FasterRCNNVGG16  # NOQA
from kusari.vision.links.model.faster_rcnn.faster_rcnn_vgg import VGG16RoIHead  # NOQA
from kusari.vision.links.model.faster_rcnn.region_proposal_network import RegionProposalNetwork  # NOQA
from kusari.vision.links.model.faster_rcnn.utils.anchor_target_creator import AnchorTargetCreator  # NOQA
from kusari.vision.links.model.faster_rcnn.utils.bbox2loc import bbox2loc  # NOQA
from kusari.vision.links.model.faster_rcnn.utils.generate_anchor_base import generate_anchor_base  # NOQA
from kusari.vision.links.model.faster_rcnn.utils.loc2bbox import loc2bbox  # NOQA
from kusari.vision.links.model.faster_rcnn.utils.proposal_creator import ProposalCreator  # NOQA
from kusari.vision.links.model.faster_rcnn.utils.proposal_target_creator import ProposalTargetCreator  # NOQA
