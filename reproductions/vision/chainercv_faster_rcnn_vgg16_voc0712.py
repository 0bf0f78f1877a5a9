"""vision/chainercv_faster_rcnn_vgg16_voc0712: Faster R-CNN (VGG-16) trained on VOC 2007+2012 trainval, VOC07
mAP on VOC 2007 test, with ChainerCV's recipe (examples/vision/train_faster_rcnn.py --dataset voc0712).

Target: ChainerCV 0.13's examples/faster_rcnn/README.md: 74.7 mAP (ours) against the paper's 73.2 (Ren et
al., IEEE TPAMI 2016). Full tier: ``--dataset voc0712 --step-size 80000 --iteration 110000`` on one GPU;
pass at 74.7 - 1.0. Quick tier: as vision/chainercv_faster_rcnn_vgg16_voc07's.
"""
from reproductions.spec import Target
from reproductions.vision import chainercv_faster_rcnn_vgg16_voc07 as voc07
from reproductions.vision._chainercv import script_reproduction

REPRODUCTION = script_reproduction(
    name="vision/chainercv_faster_rcnn_vgg16_voc0712",
    task="PASCAL VOC 2007 detection, Faster R-CNN VGG-16 (VOC07+12 trainval)",
    target=Target(value=0.747, metric="map", direction="higher", tolerance=0.01,
                  citation="ChainerCV 0.13 examples/faster_rcnn/README.md, Performance, VOC2007&2012 trainval -> "
                           "VOC2007 test: 74.7 mAP (VOC07 11-point); paper: Ren, He, Girshick & Sun, Faster "
                           "R-CNN, IEEE TPAMI 2016: 73.2 mAP"),
    script="train_faster_rcnn.py", quick_fixture="voc", quick_args=voc07.REPRODUCTION.config["quick_args"],
    quick_iterations=4,
    full_args=["--dataset", "voc0712", "--step-size", "80000", "--iteration", "110000"], full_iterations=110000,
    full_datasets={"VOC 2007 trainval": "voc/VOCdevkit/VOC2007", "VOC 2007 test": "voc/VOCdevkit/VOC2007_test",
                   "VOC 2012 trainval": "voc/VOCdevkit/VOC2012"},
    score_key="validation/main/map",
    recipe="As vision/chainercv_faster_rcnn_vgg16_voc07 on VOC 2007+2012 trainval, lr /10 at 80k, 110k iterations.")
