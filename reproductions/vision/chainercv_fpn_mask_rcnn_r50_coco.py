"""vision/chainercv_fpn_mask_rcnn_r50_coco: Mask R-CNN with a ResNet-50 feature pyramid trained on COCO 2017
train, mask mmAP on COCO 2017 val, with ChainerCV's recipe (examples/vision/train_fpn.py --model
mask_rcnn_fpn_resnet50).

Target: ChainerCV 0.13's examples/fpn/README.md, Performance: mask 34.2 % (ours; boxes 38.0 %) against the
original 33.7 % (Detectron; He, Gkioxari, Dollár & Girshick, "Mask R-CNN", ICCV 2017). Full tier as
vision/chainercv_fpn_faster_rcnn_r50_coco's; pass at 34.2 - 1.0.
"""
from reproductions.spec import Target
from reproductions.vision.chainercv_fpn_faster_rcnn_r50_coco import fpn_reproduction

REPRODUCTION = fpn_reproduction(
    "mask_rcnn_fpn_resnet50", "vision/chainercv_fpn_mask_rcnn_r50_coco",
    "MS COCO 2017 instance segmentation, Mask R-CNN FPN ResNet-50",
    Target(value=0.342, metric="mask_mmap", direction="higher", tolerance=0.01,
           citation="ChainerCV 0.13 examples/fpn/README.md, Performance, MS COCO 2017 Val, FPN w/ ResNet50, bbox + "
                    "mask supervision: mask 34.2 % mmAP (ours); original 33.7 % (Detectron; He et al., Mask R-CNN, "
                    "ICCV 2017)"))
