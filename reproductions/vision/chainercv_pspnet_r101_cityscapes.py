"""vision/chainercv_pspnet_r101_cityscapes: PSPNet (dilated ResNet-101) trained on Cityscapes train (fine),
mIoU on Cityscapes val, with ChainerCV's recipe (examples/pspnet/train_multi.py, here
examples/vision/train_pspnet.py).

Target: ChainerCV 0.13's examples/pspnet/README.md, Training model, Cityscapes: 76.01 % (ours) against
77.9 % that ChainerCV cites from holyseven/PSPNet-TF-Reproduce (the paper, Zhao et al., "Pyramid Scene
Parsing Network", CVPR 2017, gives no Cityscapes val score for this setting). Full tier: ``--dataset
cityscapes --model pspnet_resnet101 --iteration 90000`` with 16 crops per iteration on one GPU (ChainerCV:
2 on each of 8 GPUs, multi-node batch normalization); pass at 76.01 - 1.0. Cityscapes may not be
redistributed: it is put in the dataset root by hand.
"""
from reproductions.spec import Target
from reproductions.vision._chainercv import script_reproduction


def pspnet_reproduction(model: str, value: float, original: str):
    """The reproduction of ChainerCV's PSPNet ``model`` on Cityscapes (fine labels)."""
    depth = model.rsplit("resnet", 1)[1]
    return script_reproduction(
        name=f"vision/chainercv_pspnet_r{depth}_cityscapes",
        task=f"Cityscapes semantic segmentation, PSPNet dilated ResNet-{depth}",
        target=Target(value=value, metric="miou", direction="higher", tolerance=0.01,
                      citation=f"ChainerCV 0.13 examples/pspnet/README.md, Training model, Cityscapes fine only, "
                               f"PSPNet w/ Dilated ResNet{depth}: {100 * value:.2f} % mIoU (ours); original "
                               f"{original} as ChainerCV cites it from holyseven/PSPNet-TF-Reproduce (Zhao et al., "
                               f"PSPNet, CVPR 2017, lacks Cityscapes val scores)"),
        script="train_pspnet.py", quick_fixture="cityscapes",
        quick_args=["--dataset", "cityscapes", "--model", model, "--pretrained-model", "none", "--input-size",
                    "48", "--batchsize", "2", "--iteration", "2", "--log-interval", "1", "--loaderjob", "0"],
        quick_iterations=2,
        full_args=["--dataset", "cityscapes", "--model", model, "--iteration", "90000", "--batchsize", "16"],
        full_iterations=90000,
        full_datasets={"Cityscapes leftImg8bit": "cityscapes/leftImg8bit", "Cityscapes gtFine": "cityscapes/gtFine"},
        score_key="validation/main/miou",
        recipe=f"ChainerCV's examples/pspnet/train_multi.py: {model} from ImageNet weights, 713x713 crops, 16 per "
               f"iteration, MomentumSGD 1e-2 with polynomial decay 0.9 over 90k iterations, weight decay 1e-4, head "
               f"gradients x10, auxiliary loss 0.4, scale/crop/rotate/flip augmentation.")


REPRODUCTION = pspnet_reproduction("pspnet_resnet101", 0.7601, "77.9 %")
