"""vision/published_ssd300_voc0712: ChainerCV's published SSD300 (``pretrained_model='voc0712'``, converted from
the authors' Caffe weights) scored on VOC 2007 test (VOC07 11-point mAP).

Target: ChainerCV 0.13's examples/ssd/README.md, 'Ours (weight conversion)': 77.8 % (original 77.5 % as it cites
Fu et al., DSSD, arXiv:1701.06659); pass at 77.8 - 0.5.
"""
from reproductions.spec import Target
from reproductions.vision.published_faster_rcnn_vgg16_voc07 import voc_detection_reproduction


def _ssd300(pretrained_model):
    from kusari.vision.links import SSD300
    model = SSD300(n_fg_class=20 if pretrained_model is None else None, pretrained_model=pretrained_model)
    model.use_preset("evaluate")
    return model


REPRODUCTION = voc_detection_reproduction(
    "vision/published_ssd300_voc0712", "PASCAL VOC 2007 detection, ChainerCV's SSD300 weights",
    Target(value=0.778, metric="map", direction="higher", tolerance=0.005,
           citation="ChainerCV 0.13 examples/ssd/README.md, Performance, PASCAL VOC2007 Test, SSD300 'Ours (weight "
                    "conversion)': 77.8 %; original 77.5 % as ChainerCV cites it from Fu et al., DSSD, "
                    "arXiv:1701.06659 (2017)"),
    _ssd300, "voc0712", "SSD300(pretrained_model='voc0712'), preset 'evaluate', on VOC 2007 test, VOC07 11-point mAP.")
