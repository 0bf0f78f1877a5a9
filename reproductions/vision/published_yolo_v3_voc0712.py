"""vision/published_yolo_v3_voc0712: ChainerCV's published YOLOv3 (``pretrained_model='voc0712'``, converted from
darknet) scored on VOC 2007 test (VOC07 11-point mAP). ChainerCV ships no YOLO training: this is the only
YOLO reproduction.

Target: ChainerCV 0.13's examples/yolo/README.md, 'Ours (weight conversion)': 80.2 % (original 80.2 %, Redmon &
Farhadi, "YOLOv3: An Incremental Improvement", arXiv:1804.02767, 2018); pass at 80.2 - 0.5.
"""
from reproductions.spec import Target
from reproductions.vision.published_faster_rcnn_vgg16_voc07 import voc_detection_reproduction


def _yolo_v3(pretrained_model):
    from kusari.vision.links import YOLOv3
    model = YOLOv3(n_fg_class=20 if pretrained_model is None else None, pretrained_model=pretrained_model)
    model.use_preset("evaluate")
    return model


REPRODUCTION = voc_detection_reproduction(
    "vision/published_yolo_v3_voc0712", "PASCAL VOC 2007 detection, ChainerCV's YOLOv3 weights",
    Target(value=0.802, metric="map", direction="higher", tolerance=0.005,
           citation="ChainerCV 0.13 examples/yolo/README.md, Performance, PASCAL VOC2007 Test, YOLOv3 'Ours (weight "
                    "conversion)': 80.2 %; original 80.2 % (Redmon & Farhadi, YOLOv3, arXiv:1804.02767, 2018)"),
    _yolo_v3, "voc0712", "YOLOv3(pretrained_model='voc0712'), preset 'evaluate', on VOC 2007 test, VOC07 11-point mAP.")
