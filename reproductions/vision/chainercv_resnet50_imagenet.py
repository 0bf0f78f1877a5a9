"""vision/chainercv_resnet50_imagenet: ResNet-50 (``arch='fb'``) trained on ImageNet (ILSVRC2012) train,
single-crop top-1 error on its val, with ChainerCV's recipe (examples/classification/train_imagenet_multi.py,
here examples/vision/train_classification.py).

Target: ChainerCV 0.13's examples/classification/README.md, Trained model: 23.51 % top-1 error (ours; five
seeds on 8 GPUs: 23.53, std 0.06) against 23.60 % (Goyal et al., "Accurate, Large Minibatch SGD: Training
ImageNet in 1 Hour", arXiv:1706.02677, 2017). Full tier: 256 images per iteration on one GPU (ChainerCV:
32 on each of 8 GPUs), 90 epochs; pass at 23.51 + 0.5 points. ImageNet is put by hand in
``<dataset root>/imagenet/{train,val}`` (one folder per synset, as ChainerCV's README prepares it).
"""
from reproductions.spec import Target
from reproductions.vision._chainercv import script_reproduction

REPRODUCTION = script_reproduction(
    name="vision/chainercv_resnet50_imagenet",
    task="ImageNet classification, ResNet-50 (fb)",
    target=Target(value=0.2351, metric="top1_error", direction="lower", tolerance=0.005,
                  citation="ChainerCV 0.13 examples/classification/README.md, Trained model, ResNet50 (arch=fb): "
                           "23.51 % top-1 error, single crop (ours); original 23.60 % (Goyal et al., Accurate, Large "
                           "Minibatch SGD: Training ImageNet in 1 Hour, arXiv:1706.02677, 2017)"),
    script="train_classification.py", quick_fixture="imagenet",
    quick_args=["{train}", "{val}", "--crop-size", "32", "--batchsize", "4", "--epoch", "1", "--loaderjob", "0"],
    quick_iterations=1,
    full_args=["{root}/imagenet/train", "{root}/imagenet/val", "--batchsize", "256"], full_iterations=90,
    full_datasets={"ImageNet train": "imagenet/train", "ImageNet val": "imagenet/val"},
    score_key="validation/main/accuracy", error=True, budget_unit="epochs",
    recipe="ChainerCV's train_imagenet_multi.py (Goyal et al.'s recipe): ResNet-50 fb, 256 images per iteration, "
           "MomentumSGD 0.1 (0.9, weight decay 1e-4) warmed up over 5 epochs, /10 at 30, 60 and 80, 90 epochs, "
           "random-area crops of 224 and flips, last BN of each block initialized to zero.")
