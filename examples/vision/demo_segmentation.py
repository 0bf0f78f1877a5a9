#!/usr/bin/env python
"""Semantic segmentation of one image with a pretrained model, drawn to a PNG (ChainerCV's segnet, pspnet
and deeplab demos in one).

    python examples/vision/demo_segmentation.py --model deeplab_v3plus_xception65 --dataset voc \\
        --out segmentation.png photo.jpg
    python examples/vision/demo_segmentation.py --model segnet --pretrained-model my_segnet.npz image.jpg

``--pretrained-model`` takes ChainerCV's names (default: the dataset's, e.g. ``'camvid'``) or a path to an
``.npz``; the named weights are downloaded from ChainerCV's site once (or taken from
KUSARI_DOWNLOAD_MIRROR). The left panel shows the image, the right one the label map with a legend of the
classes it holds.
"""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import kusari  # noqa: E402
from kusari.dataset import DownloadError  # noqa: E402
from kusari.utils.atomic_write import atomic_path  # noqa: E402
from kusari.vision import datasets, utils  # noqa: E402
from kusari.vision.experimental.links import PSPNetResNet50, PSPNetResNet101  # noqa: E402
from kusari.vision.links import DeepLabV3plusXception65, SegNetBasic  # noqa: E402
from kusari.vision.visualizations import vis_image, vis_semantic_segmentation  # noqa: E402

# model -> (class, the datasets it has weights for (the first is the default))
MODELS = {
    "segnet": (SegNetBasic, ("camvid",)),
    "pspnet_resnet50": (PSPNetResNet50, ("cityscapes", "ade20k")),
    "pspnet_resnet101": (PSPNetResNet101, ("cityscapes", "ade20k")),
    "deeplab_v3plus_xception65": (DeepLabV3plusXception65, ("cityscapes", "ade20k", "voc")),
}
LABELS = {
    "camvid": (datasets.camvid_label_names, datasets.camvid_label_colors),
    "cityscapes": (datasets.cityscapes_semantic_segmentation_label_names,
                   datasets.cityscapes_semantic_segmentation_label_colors),
    "ade20k": (datasets.ade20k_semantic_segmentation_label_names,
               datasets.ade20k_semantic_segmentation_label_colors),
    "voc": (datasets.voc_semantic_segmentation_label_names, datasets.voc_semantic_segmentation_label_colors),
}


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="kusari.vision demo: semantic segmentation")
    parser.add_argument("--model", choices=sorted(MODELS), default="segnet")
    parser.add_argument("--gpu", type=int, default=-1, help="GPU id (-1: the CPU)")
    parser.add_argument("--pretrained-model", help="a name ChainerCV accepts, its kusari.model_zoo name or an "
                                                   ".npz path (default: the dataset's name)")
    parser.add_argument("--dataset", choices=sorted(LABELS), help="the label set (default: the model's first)")
    parser.add_argument("--input-size", type=int, help="PSPNet: the square input size (default: the weights')")
    parser.add_argument("--min-input-size", type=int, help="DeepLab: pad smaller images to this square size "
                                                           "(default: the weights')")
    parser.add_argument("--out", default="segmentation.png", help="the PNG to write")
    parser.add_argument("image", help="the image file (JPEG, PNG, ...)")
    return parser.parse_args(argv)


def build_model(args):
    cls, model_datasets = MODELS[args.model]
    dataset = args.dataset or model_datasets[0]
    if dataset not in model_datasets:
        raise SystemExit(f"demo_segmentation: --model {args.model} has weights for {', '.join(model_datasets)}, "
                         f"not --dataset {dataset}")
    label_names, label_colors = LABELS[dataset]
    kwargs = {"n_class": len(label_names), "pretrained_model": args.pretrained_model or dataset}
    if args.input_size is not None:
        if not args.model.startswith("pspnet"):
            raise SystemExit("demo_segmentation: --input-size is for the PSPNet models")
        kwargs["input_size"] = (args.input_size, args.input_size)
    if args.min_input_size is not None:
        if not args.model.startswith("deeplab"):
            raise SystemExit("demo_segmentation: --min-input-size is for DeepLab")
        kwargs["min_input_size"] = (args.min_input_size, args.min_input_size)
    try:
        return cls(**kwargs), label_names, label_colors
    except (DownloadError, FileNotFoundError, ValueError) as e:   # weights absent offline, or not this model's
        raise SystemExit(f"demo_segmentation: no weights for {args.model}: {e}")


def main(argv=None):
    args = parse_args(argv)
    model, label_names, label_colors = build_model(args)
    if args.gpu >= 0:
        model.to_device(kusari.get_device(f"@cupy:{args.gpu}"))
    img = utils.read_image(args.image, color=True)
    label, = model.predict([img])

    fig = plt.figure(figsize=(12, 4.5))
    vis_image(img, ax=fig.add_subplot(1, 2, 1))
    # the label map alone, not over the image
    ax, legend_handles = vis_semantic_segmentation(None, label, label_names, label_colors,
                                                   all_label_names_in_legend=True, ax=fig.add_subplot(1, 2, 2))
    ax.legend(handles=legend_handles, bbox_to_anchor=(1, 1), loc=2)
    with atomic_path(args.out) as tmp:
        fig.savefig(tmp, format="png", bbox_inches="tight")
    plt.close(fig)
    print(f"{args.model}: {len(set(label.ravel().tolist()))} classes in a {img.shape[1]}x{img.shape[2]} "
          f"image; wrote {args.out}")


if __name__ == "__main__":
    main()
