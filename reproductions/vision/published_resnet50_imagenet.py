"""vision/published_resnet50_imagenet: ChainerCV's published ResNet-50 (``arch='he'``, ``pretrained_model='imagenet'``,
converted from the authors' Caffe weights) scored on ImageNet (ILSVRC2012) val: single center crop of 224
after scaling to 256, top-1 error, as examples/classification/eval_imagenet.py scores it.

Target: ChainerCV 0.13's examples/classification/README.md, weight conversion, single crop: 24.8 % (original
24.7 %, He, Zhang, Ren & Sun, "Deep Residual Learning for Image Recognition", CVPR 2016); pass at 24.8 + 0.5.
ImageNet is put by hand in ``<dataset root>/imagenet/val`` (one folder per synset).
"""
import os

from reproductions.spec import Target
from reproductions.vision._published import TopOneError, published_reproduction


def _resnet50(pretrained_model):
    from kusari.vision.links import FeaturePredictor, ResNet50
    n_class = 2 if pretrained_model is None else None   # the quick tier's fixture has 2 classes
    extractor = ResNet50(n_class=n_class, pretrained_model=pretrained_model, arch="he")
    extractor.pick = "prob"
    return FeaturePredictor(extractor, crop_size=224, scale_size=256, crop="center")


def _imagenet_val(root):
    from kusari.vision.datasets import DirectoryParsingLabelDataset
    return DirectoryParsingLabelDataset(os.path.join(root, "imagenet", "val"))


REPRODUCTION = published_reproduction(
    name="vision/published_resnet50_imagenet", task="ImageNet classification, ChainerCV's ResNet-50 (he) weights",
    target=Target(value=0.248, metric="top1_error", direction="lower", tolerance=0.005,
                  citation="ChainerCV 0.13 examples/classification/README.md, Weight conversion, single crop, ResNet50 "
                           "(arch=he): 24.8 % top-1 error (ours); original 24.7 % (He, Zhang, Ren & Sun, Deep "
                           "Residual Learning, CVPR 2016)"),
    make_model=_resnet50, make_dataset=_imagenet_val, make_evaluator=TopOneError, score_key="main/top1_error",
    quick_fixture="imagenet", full_datasets={"ImageNet val": "imagenet/val"}, weights="imagenet",
    recipe="ResNet50(arch='he', pretrained_model='imagenet') in a FeaturePredictor (scale 256, center crop 224) on "
           "ILSVRC2012 val, top-1 error.")
