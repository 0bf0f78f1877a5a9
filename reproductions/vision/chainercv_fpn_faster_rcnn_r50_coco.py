"""vision/chainercv_fpn_faster_rcnn_r50_coco: Faster R-CNN with a ResNet-50 feature pyramid trained on COCO
2017 train, mmAP (COCO's AP at IoU 0.50:0.95) on COCO 2017 val, with ChainerCV's recipe
(examples/fpn/train_multi.py, here examples/vision/train_fpn.py).

Target: ChainerCV 0.13's examples/fpn/README.md, Performance: 37.1 % (ours) against the original 36.7 %
(Detectron's model zoo; Lin et al., "Feature Pyramid Networks for Object Detection", CVPR 2017). Full
tier: ``--model faster_rcnn_fpn_resnet50`` (batch 16, 90k iterations; ChainerCV ran 8 GPUs, here one
GPU with the same 16-image batches); pass at 37.1 - 1.0.
"""
from reproductions.spec import Target
from reproductions.vision._chainercv import script_reproduction

COCO_MAP = "validation/main/map/iou=0.50:0.95/area=all/max_dets=100"


def fpn_reproduction(model: str, name: str, task: str, target: Target):
    """The reproduction of ChainerCV's FPN ``model`` on COCO 2017."""
    return script_reproduction(
        name=name, task=task, target=target, script="train_fpn.py", quick_fixture="coco",
        quick_args=["--model", model, "--pretrained-model", "none", "--batchsize", "4", "--iteration", "1",
                    "--min-size", "64", "--max-size", "96", "--log-interval", "2", "--eval-interval", "4",
                    "--loaderjob", "0"],
        quick_iterations=4,
        full_args=["--model", model], full_iterations=90000,
        full_datasets={"COCO 2017 train images": "coco/images/train2017", "COCO 2017 val images":
                       "coco/images/val2017", "COCO 2017 annotations": "coco/annotations"},
        score_key=COCO_MAP,
        recipe=f"ChainerCV's examples/fpn/train_multi.py: {model} from ImageNet ResNet weights, 16 images per "
               f"iteration scaled to 800-1333 px with random flips, MomentumSGD 0.02 warmed up over 500 iterations, "
               f"/10 at 60k and 80k, 90k iterations, weight decay 1e-4, conv1, res2 and batch normalizations fixed.")


REPRODUCTION = fpn_reproduction(
    "faster_rcnn_fpn_resnet50", "vision/chainercv_fpn_faster_rcnn_r50_coco",
    "MS COCO 2017 detection, Faster R-CNN FPN ResNet-50",
    Target(value=0.371, metric="mmap", direction="higher", tolerance=0.01,
           citation="ChainerCV 0.13 examples/fpn/README.md, Performance, MS COCO 2017 Val, FPN w/ ResNet50, bbox "
                    "supervision: 37.1 % mmAP (ours); original 36.7 % (Detectron; Lin et al., FPN, CVPR 2017)"))
