"""Instance segmentation demo: Mask R-CNN (FPN, ResNet-50 or -101) on one image, drawn with
vis_instance_segmentation into a PNG (ChainerCV's examples/fpn/demo.py, instance segmentation models).

Run: python examples/vision/demo_instance_segmentation.py [--model mask_rcnn_fpn_resnet101] [--gpu 0]
     [--pretrained-model FILE.npz] [--out result.png] [IMAGE]

Without ``--pretrained-model`` the model loads ChainerCV's COCO weights, downloaded once into
``KUSARI_HOME/models`` (or found through ``KUSARI_DOWNLOAD_MIRROR``); the default image is a raccoon photo of
the shared data set (``../shared/data/raccoon/images/raccoon-1.jpg`` from the repository).
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from kusari.utils.atomic_write import atomic_path  # noqa: E402
from kusari.vision import utils  # noqa: E402
from kusari.vision.datasets import coco_instance_segmentation_label_names  # noqa: E402
from kusari.vision.links import MaskRCNNFPNResNet101, MaskRCNNFPNResNet50  # noqa: E402
from kusari.vision.visualizations import vis_instance_segmentation  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_IMAGE = os.path.join(ROOT, "..", "shared", "data", "raccoon", "images", "raccoon-1.jpg")
MODELS = {"mask_rcnn_fpn_resnet50": MaskRCNNFPNResNet50, "mask_rcnn_fpn_resnet101": MaskRCNNFPNResNet101}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=tuple(MODELS), default="mask_rcnn_fpn_resnet50")
    parser.add_argument("--gpu", type=int, default=-1, help="GPU id (negative: CPU)")
    parser.add_argument("--pretrained-model", help="an .npz of the model's weights (default: 'coco')")
    parser.add_argument("--dataset", choices=("coco",), default="coco")
    parser.add_argument("--out", default="demo_instance_segmentation.png", help="the PNG to write")
    parser.add_argument("image", nargs="?", default=DEFAULT_IMAGE)
    args = parser.parse_args(argv)

    label_names = coco_instance_segmentation_label_names
    model = MODELS[args.model](n_fg_class=len(label_names), pretrained_model=args.pretrained_model or "coco")
    if args.gpu >= 0:
        model.to_device(f"@cupy:{args.gpu}")

    img = utils.read_image(args.image)
    masks, labels, scores = model.predict([img])
    print(f"{args.image}: {len(labels[0])} instances "
          + ", ".join(f"{label_names[l]} {s:.2f}" for l, s in zip(labels[0], scores[0])))
    fig = plt.figure()
    vis_instance_segmentation(img, masks[0], labels[0], scores[0], label_names=label_names, ax=fig.add_subplot())
    with atomic_path(args.out) as tmp:
        fig.savefig(tmp, bbox_inches="tight")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
