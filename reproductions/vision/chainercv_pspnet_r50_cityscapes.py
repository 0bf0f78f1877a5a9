"""vision/chainercv_pspnet_r50_cityscapes: PSPNet (dilated ResNet-50) trained on Cityscapes train (fine), mIoU
on Cityscapes val, with ChainerCV's recipe (examples/vision/train_pspnet.py --model pspnet_resnet50).

Target: ChainerCV 0.13's examples/pspnet/README.md: 73.99 % (ours) against 76.9 % that it cites from
holyseven/PSPNet-TF-Reproduce. Full tier as vision/chainercv_pspnet_r101_cityscapes's; pass at 73.99 - 1.0.
"""
from reproductions.vision.chainercv_pspnet_r101_cityscapes import pspnet_reproduction

REPRODUCTION = pspnet_reproduction("pspnet_resnet50", 0.7399, "76.9 %")
