"""Detect objects in an image with SSD or YOLO and save the picture (ChainerCV's examples/ssd/demo.py and
examples/yolo/demo.py in one script, with kusari.vision).

    python examples/vision/demo_detection.py [--model ssd300|ssd512|yolo_v2|yolo_v2_tiny|yolo_v3] [--gpu GPU]
        [--pretrained-model voc0712|ZOO_NAME|PATH] [--label-names A,B] [--score-thresh T] [--out detection.png] IMAGE

The model is built for PASCAL VOC's 20 classes with ``pretrained_model`` (default ``'voc0712'``: ChainerCV's
published weights, downloaded once into KUSARI_HOME/models; KUSARI_DOWNLOAD_MIRROR is tried first). Without
network access, give ``--pretrained-model`` the path of an ``.npz`` of the model. A detector's name in
``kusari.model_zoo`` (``python -m kusari.model_zoo list``), e.g. ``faster-rcnn-small-raccoon`` with
``--label-names raccoon``, builds that entry's architecture with its weights instead of ``--model``. It
prints one line per detected object and saves the image with the boxes drawn (vis_bbox) as a PNG.
"""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import kusari  # noqa: E402
from kusari import model_zoo  # noqa: E402
from kusari.dataset import DownloadError  # noqa: E402
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
               "cannot be downloaded (no network), pass the path of an .npz of the model. A detector of "
               "kusari.model_zoo (e.g. faster-rcnn-small-raccoon, shipped) replaces --model.")
    parser.add_argument("--model", choices=tuple(MODELS), default="ssd300")
    parser.add_argument("--gpu", type=int, default=-1, help="GPU id (CuPy); -1: the CPU")
    parser.add_argument("--pretrained-model", default="voc0712",
                        help="'voc0712' (ChainerCV's weights, downloaded), a detector's kusari.model_zoo name "
                             "or the path of an .npz")
    parser.add_argument("--dataset", choices=("voc",), default="voc")
    parser.add_argument("--label-names", help="the class names, comma separated (default: VOC's 20)")
    parser.add_argument("--score-thresh", type=float, default=None,
                        help="least score reported (default: the model's 'visualize' preset)")
    parser.add_argument("--out", default="detection.png", help="the PNG to write")
    parser.add_argument("image", help="the image file (JPEG, PNG, ...)")
    return parser.parse_args(argv)


def build_model(args, label_names):
    """``--pretrained-model``'s zoo detector, or ``--model`` with those weights; exits with a message
    when the weights cannot be had or do not fit, or the zoo entry detects another number of classes."""
    try:
        if args.pretrained_model in model_zoo.list():
            n_fg_class = model_zoo.info(args.pretrained_model)["params"].get("n_fg_class")
            if n_fg_class is None:
                sys.exit(f"demo_detection.py: --pretrained-model {args.pretrained_model!r} is not a detector "
                         f"(its zoo entry has no n_fg_class)")
            if n_fg_class != len(label_names):
                sys.exit(f"demo_detection.py: {args.pretrained_model!r} detects {n_fg_class} classes but "
                         f"{len(label_names)} label names were given; pass --label-names")
            return model_zoo.load(args.pretrained_model)
        return MODELS[args.model](n_fg_class=len(label_names), pretrained_model=args.pretrained_model)
    except (DownloadError, FileNotFoundError) as e:
        sys.exit(f"demo_detection.py: the weights {args.pretrained_model!r} are missing: {e}")
    except ValueError as e:   # a path that does not exist, a file of another model
        sys.exit(f"demo_detection.py: {e}")


def main(argv=None):
    args = parse_args(argv)
    label_names = (voc_bbox_label_names if args.label_names is None
                   else tuple(name.strip() for name in args.label_names.split(",")))
    model = build_model(args, label_names)
    if args.score_thresh is not None:
        model.score_thresh = args.score_thresh
    if args.gpu >= 0:
        model.to_device(kusari.get_device(f"@cupy:{args.gpu}"))

    img = utils.read_image(args.image, color=True)
    bboxes, labels, scores = model.predict([img])
    bbox, label, score = bboxes[0], labels[0], scores[0]
    name = args.pretrained_model if args.pretrained_model in model_zoo.list() else args.model
    print(f"{len(bbox)} objects in {args.image} ({name}, score_thresh {model.score_thresh})")
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
