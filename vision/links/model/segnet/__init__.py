"""kusari.vision.links.model.segnet: ChainerCV's chainercv.links.model.segnet."""
from kusari.vision.links.model.segnet.segnet_basic import SegNetBasic  # NOQA
