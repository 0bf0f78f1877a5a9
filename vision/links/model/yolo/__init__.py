"""kusari.vision.links.model.yolo: ChainerCV's chainercv.links.model.yolo (YOLOv2, YOLOv3 and their parts)."""
from kusari.vision.links.model.yolo.yolo_base import YOLOBase  # NOQA
from kusari.vision.links.model.yolo.yolo_v2 import Darknet19Extractor  # NOQA
from kusari.vision.links.model.yolo.yolo_v2 import YOLOv2  # NOQA
from kusari.vision.links.model.yolo.yolo_v2 import YOLOv2Base  # NOQA
from kusari.vision.links.model.yolo.yolo_v3 import Darknet53Extractor  # NOQA
from kusari.vision.links.model.yolo.yolo_v3 import ResidualBlock  # NOQA
from kusari.vision.links.model.yolo.yolo_v3 import YOLOv3  # NOQA
