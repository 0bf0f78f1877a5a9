"""kusari.vision.links.model.ssd: ChainerCV's chainercv.links.model.ssd (SSD300, SSD512 and their parts)."""
from kusari.vision.links.model.ssd.gradient_scaling import GradientScaling  # NOQA
from kusari.vision.links.model.ssd.multibox import Multibox  # NOQA
from kusari.vision.links.model.ssd.multibox_coder import MultiboxCoder  # NOQA
from kusari.vision.links.model.ssd.multibox_loss import multibox_loss  # NOQA
from kusari.vision.links.model.ssd.normalize import Normalize  # NOQA
from kusari.vision.links.model.ssd.ssd import SSD  # NOQA
from kusari.vision.links.model.ssd.ssd_vgg16 import SSD300  # NOQA
from kusari.vision.links.model.ssd.ssd_vgg16 import SSD512  # NOQA
from kusari.vision.links.model.ssd.ssd_vgg16 import VGG16  # NOQA
from kusari.vision.links.model.ssd.ssd_vgg16 import VGG16Extractor300  # NOQA
from kusari.vision.links.model.ssd.ssd_vgg16 import VGG16Extractor512  # NOQA
from kusari.vision.links.model.ssd.transforms import random_crop_with_bbox_constraints  # NOQA
from kusari.vision.links.model.ssd.transforms import random_distort  # NOQA
from kusari.vision.links.model.ssd.transforms import resize_with_random_interpolation  # NOQA
