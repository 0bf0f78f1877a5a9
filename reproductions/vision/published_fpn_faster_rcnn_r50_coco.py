"""vision/published_fpn_faster_rcnn_r50_coco: ChainerCV's published Faster R-CNN FPN ResNet-50 (``pretrained_model=
'coco'``, trained by ChainerCV's examples/fpn/train_multi.py) scored on COCO 2017 val (mmAP), as
examples/detection/eval_detection.py scores it.

Target: ChainerCV 0.13's examples/fpn/README.md: 37.1 % (original 36.7 %, Detectron); pass at 37.1 - 0.5.
"""
import os

from reproductions.spec import Target
from reproductions.vision._published import published_reproduction


def _fpn(pretrained_model):
    from kusari.vision.links import FasterRCNNFPNResNet50
    if pretrained_model is None:
        return FasterRCNNFPNResNet50(n_fg_class=80, min_size=64, max_size=96)
    model = FasterRCNNFPNResNet50(pretrained_model=pretrained_model)
    model.use_preset("evaluate")
    return model


def _coco_val(root):
    from kusari.vision.datasets import COCOBboxDataset
    return COCOBboxDataset(os.path.join(root, "coco"), split="val", year="2017", return_area=True, return_crowded=True)


def _evaluator(iterator, model):
    from kusari.vision.extensions import DetectionCOCOEvaluator
    return DetectionCOCOEvaluator(iterator, model)


REPRODUCTION = published_reproduction(
    name="vision/published_fpn_faster_rcnn_r50_coco", task="MS COCO 2017 detection, ChainerCV's Faster R-CNN FPN "
                                                            "ResNet-50 weights",
    target=Target(value=0.371, metric="mmap", direction="higher", tolerance=0.005,
                  citation="ChainerCV 0.13 examples/fpn/README.md, Performance, MS COCO 2017 Val, FPN w/ ResNet50, "
                           "bbox: 37.1 % mmAP (ours); original 36.7 % (Detectron; Lin et al., FPN, CVPR 2017)"),
    make_model=_fpn, make_dataset=_coco_val, make_evaluator=_evaluator,
    score_key="main/map/iou=0.50:0.95/area=all/max_dets=100", quick_fixture="coco",
    full_datasets={"COCO 2017 val images": "coco/images/val2017", "COCO 2017 annotations": "coco/annotations"},
    weights="coco", recipe="FasterRCNNFPNResNet50(pretrained_model='coco'), preset 'evaluate', on COCO 2017 val, "
                           "COCO's AP at IoU 0.50:0.95 (all areas, 100 detections).")
