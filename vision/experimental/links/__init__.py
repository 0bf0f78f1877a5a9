"""kusari.vision.experimental.links: ChainerCV's chainercv.experimental.links."""
from kusari.vision.experimental.links.model.yolo import YOLOv2Tiny  # NOQA
