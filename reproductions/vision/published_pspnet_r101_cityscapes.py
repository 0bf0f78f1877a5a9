"""vision/published_pspnet_r101_cityscapes: ChainerCV's published PSPNet ResNet-101 (``pretrained_model='cityscapes'``,
converted from the authors' Caffe weights) scored on Cityscapes val (fine, single scale, mIoU).

Target: ChainerCV 0.13's examples/pspnet/README.md, weight conversion: 79.03 % (original 79.70 %, Zhao et al.,
"Pyramid Scene Parsing Network", CVPR 2017); pass at 79.03 - 0.5.
"""
import os

from reproductions.spec import Target
from reproductions.vision._published import published_reproduction


def _pspnet(pretrained_model):
    from kusari.vision.experimental.links import PSPNetResNet101
    if pretrained_model is None:
        return PSPNetResNet101(n_class=19, input_size=48)
    return PSPNetResNet101(pretrained_model=pretrained_model)


def _cityscapes_val(root):
    from kusari.vision.datasets import CityscapesSemanticSegmentationDataset
    return CityscapesSemanticSegmentationDataset(os.path.join(root, "cityscapes"), label_resolution="fine",
                                                 split="val")


def _evaluator(iterator, model):
    from kusari.vision.extensions import SemanticSegmentationEvaluator
    return SemanticSegmentationEvaluator(iterator, model)


REPRODUCTION = published_reproduction(
    name="vision/published_pspnet_r101_cityscapes",
    task="Cityscapes semantic segmentation, ChainerCV's PSPNet ResNet-101 weights",
    target=Target(value=0.7903, metric="miou", direction="higher", tolerance=0.005,
                  citation="ChainerCV 0.13 examples/pspnet/README.md, Weight Conversion, Cityscapes single scale: "
                           "79.03 % mIoU (ours); original 79.70 % (Zhao et al., PSPNet, CVPR 2017)"),
    make_model=_pspnet, make_dataset=_cityscapes_val, make_evaluator=_evaluator, score_key="main/miou",
    quick_fixture="cityscapes",
    full_datasets={"Cityscapes leftImg8bit": "cityscapes/leftImg8bit", "Cityscapes gtFine": "cityscapes/gtFine"},
    weights="cityscapes",
    recipe="PSPNetResNet101(pretrained_model='cityscapes') on Cityscapes val (fine labels, 19 classes), single "
           "scale, mean IoU.")
