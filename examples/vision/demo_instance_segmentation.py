"""Instance segmentation demo: Mask R-CNN (FPN, ResNet-50 or -101) or FCIS (ResNet-101) on one image, drawn
with vis_instance_segmentation into a PNG (ChainerCV's examples/fpn/demo.py and examples/fcis/demo.py).

Run: python examples/vision/demo_instance_segmentation.py [--model mask_rcnn_fpn_resnet101 | fcis_resnet101]
     [--dataset coco | sbd] [--gpu 0] [--pretrained-model FILE.npz] [--out result.png] IMAGE

Without ``--pretrained-model`` the model loads ChainerCV's weights for ``--dataset`` (COCO; FCIS also SBD,
its default as in ChainerCV's FCIS demo), downloaded once into ``KUSARI_HOME/models`` (or found through
``KUSARI_DOWNLOAD_MIRROR``).
"""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from kusari.dataset import DownloadError  # noqa: E402
from kusari.utils.atomic_write import atomic_path  # noqa: E402
from kusari.vision import utils  # noqa: E402
from kusari.vision.datasets import coco_instance_segmentation_label_names  # noqa: E402
from kusari.vision.datasets import sbd_instance_segmentation_label_names  # noqa: E402
from kusari.vision.experimental.links import FCISResNet101  # noqa: E402
from kusari.vision.links import MaskRCNNFPNResNet101, MaskRCNNFPNResNet50  # noqa: E402
from kusari.vision.visualizations import vis_instance_segmentation  # noqa: E402

MODELS = {"mask_rcnn_fpn_resnet50": MaskRCNNFPNResNet50, "mask_rcnn_fpn_resnet101": MaskRCNNFPNResNet101,
          "fcis_resnet101": FCISResNet101}
LABEL_NAMES = {"coco": coco_instance_segmentation_label_names, "sbd": sbd_instance_segmentation_label_names}


def make_model(name: str, dataset: str, pretrained_model: str):
    """The model ``name`` for ``dataset``'s classes, as ChainerCV's demos build it (FCIS on COCO: anchors
    of 4 to 32 pixels and proposals from 2 pixels)."""
    n_fg_class = len(LABEL_NAMES[dataset])
    if name != "fcis_resnet101":
        return MODELS[name](n_fg_class=n_fg_class, pretrained_model=pretrained_model)
    if dataset == "sbd":
        return FCISResNet101(n_fg_class=n_fg_class, pretrained_model=pretrained_model)
    return FCISResNet101(n_fg_class=n_fg_class, anchor_scales=(4, 8, 16, 32), pretrained_model=pretrained_model,
                         proposal_creator_params={**FCISResNet101.proposal_creator_params, "min_size": 2})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=tuple(MODELS), default="mask_rcnn_fpn_resnet50")
    parser.add_argument("--gpu", type=int, default=-1, help="GPU id (negative: CPU)")
    parser.add_argument("--pretrained-model", help="an .npz of the model's weights or their kusari.model_zoo "
                                                   "name (default: 'coco')")
    parser.add_argument("--dataset", choices=tuple(LABEL_NAMES),
                        help="whose classes and weights (default: sbd for FCIS, coco for Mask R-CNN)")
    parser.add_argument("--out", default="demo_instance_segmentation.png", help="the PNG to write")
    parser.add_argument("image", help="the image file (JPEG, PNG, ...)")
    args = parser.parse_args(argv)

    dataset = args.dataset or ("sbd" if args.model == "fcis_resnet101" else "coco")
    if dataset == "sbd" and args.model != "fcis_resnet101":
        parser.error(f"--dataset sbd: ChainerCV publishes SBD weights for fcis_resnet101 only, not {args.model}")
    label_names = LABEL_NAMES[dataset]
    try:
        model = make_model(args.model, dataset, args.pretrained_model or dataset)
    except (DownloadError, FileNotFoundError, ValueError) as e:   # weights absent offline, or not this model's
        sys.exit(f"demo_instance_segmentation.py: no weights for {args.model}: {e}")
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
