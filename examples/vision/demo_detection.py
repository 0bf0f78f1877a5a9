"""Detect objects in an image with SSD or YOLO and save the picture (ChainerCV's examples/ssd/demo.py and
examples/yolo/demo.py in one script, with kusari.vision).

    python examples/vision/demo_detection.py [--model ssd300|ssd512|yolo_v2|yolo_v2_tiny|yolo_v3] [--gpu GPU]
        [--pretrained-model voc0712|PATH] [--score-thresh T] [--out detection.png] IMAGE

The model is built for PASCAL VOC's 20 classes with ``pretrained_model`` (default ``'voc0712'``: ChainerCV's
published weights, downloaded once into KUSARI_HOME/models; KUSARI_DOWNLOAD_MIRROR is tried first). Without
network access, give ``--pretrained-model`` the path of an ``.npz`` of the model. It prints one line per
detected object and saves the image with the boxes drawn (vis_bbox) as a PNG.
"""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import kusari  # noqa: E402
from kusari.utils.atomic_write import atomic_path  # noqa: E402
from kusari.vision import utils  # noqa: E402
from kusari.vision.datasets import voc_bbox_label_names  # noqa: E402
from kusari.vision.experimental.links import YOLOv2Tiny  # noqa: E402
from kusari.vision.links import SSD300, SSD512, YOLOv2, YOLOv3  # noqa: E402
from kusari.vision.visualizations import vis_bbox  # noqa: E402

MODELS = {"ssd300": SSD300, "ssd512": SSD512, "yolo_v2": YOLOv2, "yolo_v2_tiny": YOLOv2Tiny, "yolo_v3": YOLOv3}


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description="Detect objects with SSD or YOLO (PASCAL VOC classes) and save the picture.",
        epilog="The 'voc0712' weights are ChainerCV's published files, downloaded on first use; where they "
               "cannot be downloaded (no network), pass the path of an .npz of the model.")
    parser.add_argument("--model", choices=tuple(MODELS), default="ssd300")
    parser.add_argument("--gpu", type=int, default=-1, help="GPU id (CuPy); -1: the CPU")
    parser.add_argument("--pretrained-model", default="voc0712",
                        help="'voc0712' (ChainerCV's weights, downloaded) or the path of an .npz")
    parser.add_argument("--dataset", choices=("voc",), default="voc")
    parser.add_argument("--score-thresh", type=float, default=None,
                        help="least score reported (default: the model's 'visualize' preset)")
    parser.add_argument("--out", default="detection.png", help="the PNG to write")
    parser.add_argument("image", help="the image file (JPEG, PNG, ...)")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    label_names = voc_bbox_label_names
    model = MODELS[args.model](n_fg_class=len(label_names), pretrained_model=args.pretrained_model)
    if args.score_thresh is not None:
        model.score_thresh = args.score_thresh
    if args.gpu >= 0:
        model.to_device(kusari.get_device(f"@cupy:{args.gpu}"))

    img = utils.read_image(args.image, color=True)
    bboxes, labels, scores = model.predict([img])
    bbox, label, score = bboxes[0], labels[0], scores[0]
    print(f"{len(bbox)} objects in {args.image} ({args.model}, score_thresh {model.score_thresh})")
    for (y_min, x_min, y_max, x_max), l, s in zip(bbox, label, score):
        print(f"{label_names[l]}\t{s:.4f}\t{y_min:.1f}\t{x_min:.1f}\t{y_max:.1f}\t{x_max:.1f}")

    ax = vis_bbox(img, bbox, label, score, label_names=label_names)
    ax.set_axis_off()
    with atomic_path(args.out) as tmp:
        ax.figure.savefig(tmp, format="png", bbox_inches="tight")
    plt.close(ax.figure)
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
