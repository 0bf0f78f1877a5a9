"""vision/chainercv_ssd512_voc0712: SSD512 trained on VOC 2007+2012 trainval, VOC07 mAP on VOC 2007 test, with
ChainerCV's recipe (examples/vision/train_ssd.py --model ssd512).

Target: ChainerCV 0.13's examples/ssd/README.md: 80.1 % trained by ChainerCV with batch 24 (GPU memory;
80.5 % on 4 GPUs) against the original 79.5 % it cites from Fu et al., DSSD, arXiv:1701.06659 (2017).
Full tier: ``--model ssd512 --batchsize 24`` on one GPU, 120k iterations; pass at 80.1 - 1.0.
"""
from reproductions.vision.chainercv_ssd300_voc0712 import ssd_reproduction

REPRODUCTION = ssd_reproduction(
    "ssd512", 0.801, "79.5 % as ChainerCV cites it from Fu et al., DSSD, arXiv:1701.06659 (2017); ChainerCV "
                     "trained with batch 24 for want of GPU memory (the paper used 32)", 24)
