"""What the kusari.vision training scripts share: the device, the communicator, a dataset that may be
missing, the reporting extensions and ``--resume``."""
import os
import random
import sys

import numpy

import kusari
from kusari.dataset import DownloadError
from kusari.training import extensions


def get_device(gpu: int):
    """``@cupy:<gpu>`` for ``gpu >= 0``, else NumPy."""
    return kusari.get_device(f"@cupy:{gpu}" if gpu >= 0 else "@numpy")


def create_communicator(name: str | None, gpu: int):
    """``kusari.distributed``'s communicator ``name`` (None: no communicator, a plain single process).

    Started without ``mpiexec`` the communicator has one rank, so a multi-process script also runs
    as one process. On the CPU only 'naive' and 'flat' communicate host arrays; another name is
    replaced by 'naive', saying so.
    """
    if name is None:
        return None
    import kusari.distributed as chainermn

    if gpu < 0 and name not in ("naive", "flat"):
        print(f"the {name!r} communicator needs GPUs; using 'naive' on the CPU", file=sys.stderr)
        name = "naive"
    return chainermn.create_communicator(name)


def load_or_exit(script: str, what: str, how_to_get: str, make):
    """``make()``, or exit with status 2 and a message saying where ``what`` was expected and how to
    get it when its files are missing (a failed download or an absent file)."""
    try:
        return make()
    except (DownloadError, FileNotFoundError) as e:
        print(f"{script}: {what} is missing: {e}\nTo get it: {how_to_get}", file=sys.stderr)
        sys.exit(2)


def extend_reports(trainer, print_keys, plot_keys, log_interval, plot_interval) -> None:
    """LogReport, observed learning rate, PrintReport of ``print_keys``, a progress bar and, where
    matplotlib is installed, one PlotReport per list of ``plot_keys`` (``{filename: keys}``)."""
    trainer.extend(extensions.LogReport(trigger=log_interval))
    trainer.extend(extensions.observe_lr(), trigger=log_interval)
    trainer.extend(extensions.PrintReport(print_keys), trigger=log_interval)
    trainer.extend(extensions.ProgressBar(update_interval=10))
    if extensions.PlotReport.available():
        for filename, keys in plot_keys.items():
            trainer.extend(extensions.PlotReport(keys, x_key="iteration", trigger=plot_interval,
                                                 filename=filename), trigger=plot_interval)


def seed(value: int) -> None:
    """Seed NumPy's and Python's generators: kusari.vision's transforms draw from both, as ChainerCV's do
    (flips and crops from ``random``, the rest from ``numpy.random``)."""
    random.seed(value)
    numpy.random.seed(value)


def save_npz(path, obj) -> None:
    """``kusari.serializers.save_npz`` without compression, the snapshots' writer: float weights barely
    compress (ResNet-50's trainer state: 188 MB raw, 175 MB zipped) and zlib spends ~20 s of CPU on them."""
    kusari.serializers.save_npz(path, obj, compression=False)


def resume(trainer, path: str | None) -> None:
    """Load the trainer's snapshot ``path`` (a file ``extensions.snapshot`` wrote), if given: with NumPy's
    and Python's random states, so the flips and crops continue as in an uninterrupted run. Call it
    after every other ``trainer.extend``."""
    if path:
        if not os.path.isfile(path):
            sys.exit(f"--resume: the snapshot {path} does not exist")
        kusari.serializers.load_npz(path, trainer)


VOC_HOW_TO_GET = ("VOC 2007/2012 download into $KUSARI_DATASET_ROOT/voc (default ~/.kusari/dataset/voc) the first "
                  "time; offline, put VOCtrainval_06-Nov-2007.tar, VOCtest_06-Nov-2007.tar and VOCtrainval_11-May-2012.tar "
                  "in a folder named by KUSARI_DOWNLOAD_MIRROR, or give --data-dir a folder in VOC's layout "
                  "(ImageSets/Main/<split>.txt, JPEGImages/, Annotations/)")


def add_detection_dataset_arguments(parser, default_dataset: str) -> None:
    """``--dataset`` (ChainerCV's voc07 / voc0712) and the arguments that read another dataset in VOC's
    layout instead (``--data-dir``, ``--train-split``, ``--test-split``, ``--label-names``)."""
    parser.add_argument("--dataset", choices=("voc07", "voc0712"), default=default_dataset,
                        help="train on VOC2007 trainval or VOC2007+2012 trainval; test on VOC2007 test")
    parser.add_argument("--data-dir", help="a folder in VOC's layout to use instead of --dataset")
    parser.add_argument("--train-split", default="trainval", help="with --data-dir: the training split")
    parser.add_argument("--test-split", default="test", help="with --data-dir: the test split")
    parser.add_argument("--label-names", help="with --data-dir: the class names, comma separated (default VOC's 20)")


def detection_datasets(script: str, args):
    """``(train, test, label_names)`` of the VOC-format datasets ``args`` name (sliceable: ``train.slice``
    reads the annotations alone); the test set keeps the difficult objects and returns their flags, as
    VOC's evaluation wants."""
    from kusari.vision.chainer_experimental.datasets.sliceable import ConcatenatedDataset
    from kusari.vision.datasets import VOCBboxDataset, voc_bbox_label_names

    if args.data_dir is None:
        if args.label_names is not None:
            sys.exit(f"{script}: --label-names needs --data-dir (VOC's own names are fixed)")
        label_names = voc_bbox_label_names
        years = ("2007",) if args.dataset == "voc07" else ("2007", "2012")

        def make():
            train = [VOCBboxDataset(year=year, split="trainval") for year in years]
            test = VOCBboxDataset(year="2007", split="test", use_difficult=True, return_difficult=True)
            return (train[0] if len(train) == 1 else ConcatenatedDataset(*train)), test
        what = f"the {args.dataset} dataset"
    else:
        label_names = (voc_bbox_label_names if args.label_names is None
                       else tuple(name.strip() for name in args.label_names.split(",")))

        def make():
            train = VOCBboxDataset(args.data_dir, split=args.train_split, label_names=label_names)
            test = VOCBboxDataset(args.data_dir, split=args.test_split, use_difficult=True, return_difficult=True,
                                  label_names=label_names)
            return train, test
        what = f"the VOC-format dataset in {args.data_dir}"
    train, test = load_or_exit(script, what, VOC_HOW_TO_GET, make)
    return train, test, label_names


def add_eval_interval_argument(parser) -> None:
    """``--eval-interval``: evaluate every N iterations instead of at the schedule's milestones."""
    parser.add_argument("--eval-interval", type=int,
                        help="evaluate every N iterations (default: at each learning-rate step and at the end)")


def evaluation_trigger(eval_interval: int | None, milestones):
    """Every ``eval_interval`` iterations, or at the iterations ``milestones`` (ChainerCV's choice)."""
    if eval_interval is not None:
        if eval_interval < 1:
            sys.exit(f"--eval-interval must be a positive number of iterations, got {eval_interval}")
        return eval_interval, "iteration"
    return kusari.training.triggers.ManualScheduleTrigger(list(milestones), "iteration")


def with_boxes(script: str, train):
    """``train`` without its images that hold no box (all their objects difficult, or none), saying how
    many were left out: a detector's training targets need at least one box."""
    keep = [i for i, label in enumerate(train.slice[:, "label"]) if len(label)]
    if len(keep) < len(train):
        print(f"{script}: {len(train) - len(keep)} of {len(train)} training images hold no box and are left out")
        train = train.slice[keep]
    return train
