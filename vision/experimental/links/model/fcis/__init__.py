"""kusari.vision.experimental.links.model.fcis: ChainerCV's chainercv.experimental.links.model.fcis (FCIS,
instance segmentation on ResNet-101, its training chain and utilities)."""
from kusari.vision.experimental.links.model.fcis.fcis import FCIS  # NOQA
from kusari.vision.experimental.links.model.fcis.fcis_resnet101 import FCISResNet101  # NOQA
from kusari.vision.experimental.links.model.fcis.fcis_resnet101 import FCISResNet101Head  # NOQA
from kusari.vision.experimental.links.model.fcis.fcis_resnet101 import ResNet101Extractor  # NOQA
from kusari.vision.experimental.links.model.fcis.fcis_train_chain import FCISTrainChain  # NOQA
from kusari.vision.experimental.links.model.fcis.utils.mask_voting import mask_voting  # NOQA
from kusari.vision.experimental.links.model.fcis.utils.proposal_target_creator import ProposalTargetCreator  # NOQA
