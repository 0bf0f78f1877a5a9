"""kusari.vision.experimental.links.model.yolo: ChainerCV's chainercv.experimental.links.model.yolo."""
from kusari.vision.experimental.links.model.yolo.yolo_v2_tiny import DarknetExtractor  # NOQA
from kusari.vision.experimental.links.model.yolo.yolo_v2_tiny import YOLOv2Tiny  # NOQA
