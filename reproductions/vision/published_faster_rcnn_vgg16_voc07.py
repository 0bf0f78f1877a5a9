"""vision/published_faster_rcnn_vgg16_voc07: ChainerCV's published Faster R-CNN VGG-16 (``pretrained_model='voc07'``)
scored on VOC 2007 test (VOC07 11-point mAP, difficult objects ignored), as ChainerCV's
examples/detection/eval_detection.py scores it.

Target: ChainerCV 0.13's examples/faster_rcnn/README.md: 70.6 mAP (the paper: 69.9, Ren et al., TPAMI 2016);
pass at 70.6 - 0.5.
"""
from reproductions.spec import Target
from reproductions.vision._published import published_reproduction


def _voc07_test(root):
    import os
    from kusari.vision.datasets import VOCBboxDataset
    voc = os.path.join(root, "voc")
    data_dir = os.path.join(voc, "VOCdevkit", "VOC2007_test") if os.path.isdir(os.path.join(voc, "VOCdevkit")) else voc
    return VOCBboxDataset(data_dir, split="test", use_difficult=True, return_difficult=True)


def _voc_evaluator(iterator, model):
    from kusari.vision.extensions import DetectionVOCEvaluator
    return DetectionVOCEvaluator(iterator, model, use_07_metric=True)


def voc_detection_reproduction(name, task, target, make_model, weights, recipe):
    """A detector's published VOC weights scored on VOC 2007 test."""
    return published_reproduction(
        name=name, task=task, target=target, make_model=make_model, make_dataset=_voc07_test,
        make_evaluator=_voc_evaluator, score_key="main/map", quick_fixture="voc",
        full_datasets={"VOC 2007 test": "voc/VOCdevkit/VOC2007_test"}, weights=weights, recipe=recipe)


def _faster_rcnn(pretrained_model):
    from kusari.vision.links import FasterRCNNVGG16
    if pretrained_model is None:   # the quick tier's random detector, at a small scale
        return FasterRCNNVGG16(n_fg_class=20, min_size=160, max_size=224)
    model = FasterRCNNVGG16(pretrained_model=pretrained_model)
    model.use_preset("evaluate")
    return model


REPRODUCTION = voc_detection_reproduction(
    "vision/published_faster_rcnn_vgg16_voc07", "PASCAL VOC 2007 detection, ChainerCV's Faster R-CNN VGG-16 weights",
    Target(value=0.706, metric="map", direction="higher", tolerance=0.005,
           citation="ChainerCV 0.13 examples/faster_rcnn/README.md, Performance, VOC2007 trainval -> VOC2007 test: "
                    "70.6 mAP (ours); paper: Ren, He, Girshick & Sun, Faster R-CNN, IEEE TPAMI 2016: 69.9 mAP"),
    _faster_rcnn, "voc07", "FasterRCNNVGG16(pretrained_model='voc07'), preset 'evaluate', on VOC 2007 test "
                           "(difficult objects ignored), VOC07 11-point mAP.")
