"""Classification demo: an ImageNet classifier on one image, its five most probable classes printed and drawn
with the image into a PNG. The models and the preprocessing are those of ChainerCV's
examples/classification/eval_imagenet.py: FeaturePredictor scales the shorter side to 256 and takes the
center 224x224 crop.

Run: python examples/vision/demo_classification.py [--model resnet50] [--gpu 0] [--pretrained-model FILE.npz]
     [--label-names FILE.txt] [--out result.png] IMAGE

Without ``--pretrained-model`` the model loads ChainerCV's ImageNet weights, downloaded once into
``KUSARI_HOME/models`` (or found through ``KUSARI_DOWNLOAD_MIRROR``). ChainerCV ships no ImageNet class
names: the classes are printed as numbers, or named from ``--label-names`` (one name per line, in the
weights' class order).
"""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy  # noqa: E402

from kusari import backend  # noqa: E402
from kusari.dataset import DownloadError  # noqa: E402
from kusari.utils.atomic_write import atomic_path  # noqa: E402
from kusari.vision import utils  # noqa: E402
from kusari.vision.links import (FeaturePredictor, ResNet50, ResNet101, ResNet152, SEResNet50,  # noqa: E402
                                 SEResNet101, SEResNet152, SEResNeXt50, SEResNeXt101, VGG16)
from kusari.vision.visualizations import vis_image  # noqa: E402

# name -> (class, keyword arguments): eval_imagenet.py's table (its ResNets default to arch='fb')
MODELS = {"vgg16": (VGG16, {}), "resnet50": (ResNet50, {"arch": "fb"}), "resnet101": (ResNet101, {"arch": "fb"}),
          "resnet152": (ResNet152, {"arch": "fb"}), "se-resnet50": (SEResNet50, {}),
          "se-resnet101": (SEResNet101, {}), "se-resnet152": (SEResNet152, {}), "se-resnext50": (SEResNeXt50, {}),
          "se-resnext101": (SEResNeXt101, {})}
N_CLASS = 1000
TOP = 5


def read_label_names(path: str) -> list:
    """One class name per non-empty line of ``path``; there must be one per ImageNet class."""
    with open(path, encoding="utf-8") as f:
        names = [line.strip() for line in f if line.strip()]
    if len(names) != N_CLASS:
        raise SystemExit(f"--label-names {path}: {len(names)} names, expected one per class ({N_CLASS})")
    return names


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=tuple(MODELS), default="resnet50")
    parser.add_argument("--gpu", type=int, default=-1, help="GPU id (negative: CPU)")
    parser.add_argument("--pretrained-model", help="an .npz of the model's weights or their kusari.model_zoo "
                                                   "name (default: 'imagenet')")
    parser.add_argument("--label-names", help="a text file of the 1000 class names, one per line")
    parser.add_argument("--out", default="demo_classification.png", help="the PNG to write")
    parser.add_argument("image", help="the image file (JPEG, PNG, ...)")
    args = parser.parse_args(argv)

    label_names = read_label_names(args.label_names) if args.label_names else None
    cls, kwargs = MODELS[args.model]
    try:
        extractor = cls(n_class=N_CLASS, pretrained_model=args.pretrained_model or "imagenet", **kwargs)
    except (DownloadError, FileNotFoundError, ValueError) as e:   # weights absent offline, or not this model's
        sys.exit(f"demo_classification.py: no weights for {args.model}: {e}")
    model = FeaturePredictor(extractor, crop_size=224, scale_size=256, crop="center")
    if args.gpu >= 0:
        model.to_device(f"@cupy:{args.gpu}")

    img = utils.read_image(args.image)
    prob = backend.to_cpu(model.predict([img])[0])        # (1000,): the softmax of the one image
    top = numpy.argsort(prob)[::-1][:TOP]
    lines = [f"{label_names[c] if label_names else f'class {c}'}: {prob[c]:.3f}" for c in top]
    print(f"{args.image}: " + ", ".join(lines))
    fig = plt.figure()
    ax = vis_image(img, ax=fig.add_subplot())
    ax.set_title("\n".join(lines), fontsize=8)
    ax.axis("off")
    with atomic_path(args.out) as tmp:
        fig.savefig(tmp, bbox_inches="tight")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
