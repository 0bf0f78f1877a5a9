"""vision/chainercv_faster_rcnn_vgg16_voc07: Faster R-CNN (VGG-16) trained on VOC 2007 trainval, VOC07 mAP on
VOC 2007 test, with ChainerCV's recipe (examples/faster_rcnn/train.py, here examples/vision/train_faster_rcnn.py).

Target: ChainerCV 0.13's examples/faster_rcnn/README.md, Performance table: 70.6 mAP (ours) against the
paper's 69.9 (Ren, He, Girshick & Sun, "Faster R-CNN: Towards real-time object detection with region
proposal networks", IEEE TPAMI 2016). Full tier: ChainerCV's command ``train.py --dataset voc07
--step-size 50000 --iteration 70000`` on one GPU from VGG-16's ImageNet weights; pass at 70.6 - 1.0.
Quick tier: FasterRCNNVGG16 from random weights on a VOC-layout fixture at 160-224 px (see ``_chainercv``).
"""
from reproductions.spec import Target
from reproductions.vision._chainercv import script_reproduction

REPRODUCTION = script_reproduction(
    name="vision/chainercv_faster_rcnn_vgg16_voc07",
    task="PASCAL VOC 2007 detection, Faster R-CNN VGG-16 (VOC07 trainval)",
    target=Target(value=0.706, metric="map", direction="higher", tolerance=0.01,
                  citation="ChainerCV 0.13 examples/faster_rcnn/README.md, Performance, VOC2007 trainval -> "
                           "VOC2007 test: 70.6 mAP (VOC07 11-point); paper: Ren, He, Girshick & Sun, Faster "
                           "R-CNN, IEEE TPAMI 2016: 69.9 mAP"),
    script="train_faster_rcnn.py", quick_fixture="voc",
    quick_args=["--data-dir", "{voc}", "--label-names", "dog,cat", "--pretrained-model", "none", "--min-size",
                "160", "--max-size", "224", "--iteration", "4", "--step-size", "2", "--eval-interval", "4", "--log-interval", "2", "--loaderjob", "0"],
    quick_iterations=4,
    full_args=["--dataset", "voc07", "--step-size", "50000", "--iteration", "70000"], full_iterations=70000,
    full_datasets={"VOC 2007 trainval": "voc/VOCdevkit/VOC2007", "VOC 2007 test": "voc/VOCdevkit/VOC2007_test"},
    score_key="validation/main/map",
    recipe="ChainerCV's examples/faster_rcnn/train.py: FasterRCNNVGG16 from ImageNet VGG-16, one image per "
           "iteration scaled to 600-1000 px with random flips, MomentumSGD 1e-3 (0.9, weight decay 5e-4), /10 "
           "at 50k, 70k iterations; VOC07 11-point mAP on VOC 2007 test.")
