"""The kusari.vision FPN detectors' pretrained weights: ChainerCV's published files, by their URLs.

``FasterRCNNFPNResNet50/101`` and ``MaskRCNNFPNResNet50/101`` resolve ChainerCV's ``'coco'`` to these keys
through their ``_models`` tables; ``'imagenet'`` initializes only their ResNet from the classifiers' entries
``resnet50-he-imagenet`` / ``resnet101-he-imagenet`` (model_zoo/vision.py). The scores are ChainerCV's (mean
of mAP over IoU 0.50:0.95 on COCO 2017 val, from its examples/fpn README); they were not re-evaluated here,
where COCO is not available.
"""
from kusari.model_zoo.registry import Entry, register
from kusari.model_zoo.vision import NO_CHECKSUM, URL_PREFIX

COCO = "MS COCO 2017 train"
PUBLISHED = "published by ChainerCV 0.13.1 (examples/fpn); not re-evaluated here (no COCO)"


def _register(name: str, architecture: str, file: str, metric: dict) -> None:
    register(Entry(name=name, architecture=f"kusari.vision.links:{architecture}", params={"n_fg_class": 80},
                   file=file, url=URL_PREFIX + file, dataset=COCO, metric=metric, reproduction=PUBLISHED,
                   no_checksum=NO_CHECKSUM))


_register("faster-rcnn-fpn-resnet50-coco", "FasterRCNNFPNResNet50",
          "faster_rcnn_fpn_resnet50_coco_trained_2019_03_15.npz", {"bbox_mmap_coco_val2017": 0.371})
_register("faster-rcnn-fpn-resnet101-coco", "FasterRCNNFPNResNet101",
          "faster_rcnn_fpn_resnet101_coco_trained_2019_03_15.npz", {"bbox_mmap_coco_val2017": 0.395})
_register("mask-rcnn-fpn-resnet50-coco", "MaskRCNNFPNResNet50",
          "mask_rcnn_fpn_resnet50_coco_trained_2019_03_15.npz",
          {"bbox_mmap_coco_val2017": 0.380, "mask_mmap_coco_val2017": 0.342})
_register("mask-rcnn-fpn-resnet101-coco", "MaskRCNNFPNResNet101",
          "mask_rcnn_fpn_resnet101_coco_trained_2019_03_15.npz",
          {"bbox_mmap_coco_val2017": 0.404, "mask_mmap_coco_val2017": 0.360})
