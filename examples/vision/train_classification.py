#!/usr/bin/env python
"""Train ResNet-50/101/152 on an ImageNet-style folder tree (ChainerCV's
examples/classification/train_imagenet_multi.py: same arguments, defaults and schedule).

    python train_classification.py TRAIN_DIR VAL_DIR [--gpu 0]
    mpiexec -n 8 python train_classification.py TRAIN_DIR VAL_DIR --gpu 0 --communicator pure_nccl

Each folder holds one sub-folder of images per class (``TRAIN_DIR/n01440764/*.JPEG``...). Training
crops a random area and aspect ratio resized to 224x224 and flips it; validation scales the shorter
side to 256 and takes the central 224x224. CorrectedMomentumSGD (momentum 0.9, weight decay 1e-4 but
none on batch normalization) with the linear scaling rule (lr 0.1 per 256 images) warmed up over 5
epochs when above 0.1, divided by 10 at epochs 30, 60 and 80; the last batch normalization of each
residual block starts at zero scale (Goyal et al., 2017).
"""
import argparse

import _train_common as common
import kusari
import kusari.links as L
from kusari import training
from kusari.optimizer_hooks import WeightDecay
from kusari.training import extensions
from kusari.vision.chainer_experimental.training.extensions import make_shift
from kusari.vision.datasets import DirectoryParsingLabelDataset, directory_parsing_label_names
from kusari.vision.links import ResNet50, ResNet101, ResNet152
from kusari.vision.links.model.resnet import Bottleneck
from kusari.vision.transforms import center_crop, random_flip, random_sized_crop, resize, scale

MODELS = {"resnet50": ResNet50, "resnet101": ResNet101, "resnet152": ResNet152}


class TrainTransform:
    """A random crop of random area and aspect ratio, resized to ``size`` x ``size``, flipped at random,
    less the mean."""

    def __init__(self, mean, size):
        self.mean = mean
        self.size = size

    def __call__(self, in_data):
        img, label = in_data
        img = random_sized_crop(img)
        img = resize(img, (self.size, self.size))
        img = random_flip(img, x_random=True)
        return img - self.mean, label


class ValTransform:
    """The shorter side scaled to ``size * 256 / 224``, the central ``size`` x ``size``, less the mean."""

    def __init__(self, mean, size):
        self.mean = mean
        self.size = size

    def __call__(self, in_data):
        img, label = in_data
        img = scale(img, round(self.size * 256 / 224))
        img = center_crop(img, (self.size, self.size))
        return img - self.mean, label


def learning_rate(lr: float, epoch: float) -> float:
    """The rate at ``epoch`` (fractional): from ``min(lr, 0.1)`` linearly up to ``lr`` over 5 epochs, then
    ``lr`` divided by 10 at epochs 30, 60 and 80."""
    if epoch < 5:
        return lr if lr <= 0.1 else 0.1 + (lr - 0.1) * epoch / 5
    return lr * 0.1 ** sum(epoch >= milestone for milestone in (30, 60, 80))


def main(argv=None):
    parser = argparse.ArgumentParser(description="kusari.vision training example: ImageNet classification")
    parser.add_argument("train", help="the training folder: one sub-folder of images per class")
    parser.add_argument("val", help="the validation folder, with the same class sub-folders")
    parser.add_argument("--model", "-m", choices=tuple(MODELS), default="resnet50")
    parser.add_argument("--gpu", type=int, default=-1, help="GPU id (with --communicator: each rank's local rank)")
    parser.add_argument("--communicator", help="kusari.distributed communicator (e.g. pure_nccl); "
                                                "launch with mpiexec for several processes")
    parser.add_argument("--loaderjob", type=int, default=4, help="data loading processes (0: load in this process)")
    parser.add_argument("--batchsize", type=int, default=32, help="batch size of each process")
    parser.add_argument("--lr", type=float, help="default: 0.1 * (batch size of all processes) / 256")
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--weight-decay", type=float, default=0.0001)
    parser.add_argument("--crop-size", type=int, default=224, help="the side of the square the network sees")
    parser.add_argument("--out", type=str, default="result")
    parser.add_argument("--epoch", type=int, default=90)
    parser.add_argument("--resume", help="a trainer snapshot to continue from")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    script = "train_classification.py"

    common.seed(args.seed)
    comm = common.create_communicator(args.communicator, args.gpu)
    rank, size = (0, 1) if comm is None else (comm.rank, comm.size)
    device = common.get_device(comm.intra_rank if comm is not None and args.gpu >= 0 else args.gpu)
    lr = args.lr
    if lr is None:
        lr = 0.1 * args.batchsize * size / 256
        if rank == 0:
            print(f"lr={lr}: lr is selected based on the linear scaling rule")

    how_to_get = ("give two folders (training, validation) holding one sub-folder of images per class, e.g. "
                  "ILSVRC2012's train and val images sorted into their synset folders")
    label_names = common.load_or_exit(script, f"the training folder {args.train}", how_to_get,
                                      lambda: directory_parsing_label_names(args.train))
    extractor = MODELS[args.model](n_class=len(label_names), arch="fb")
    extractor.pick = "fc6"
    model = L.Classifier(extractor)
    for link in model.links():
        if isinstance(link, Bottleneck):
            link.conv3.bn.gamma.array[:] = 0

    train_data, val_data = common.load_or_exit(script, "the image folders", how_to_get, lambda: (
        DirectoryParsingLabelDataset(args.train), DirectoryParsingLabelDataset(args.val)))
    if directory_parsing_label_names(args.val) != label_names:
        parser.error(f"the class folders of {args.val} differ from those of {args.train}")
    train_data = kusari.datasets.TransformDataset(train_data, TrainTransform(extractor.mean, args.crop_size))
    val_data = kusari.datasets.TransformDataset(val_data, ValTransform(extractor.mean, args.crop_size))
    if comm is not None:
        import kusari.distributed as chainermn
        train_data = chainermn.scatter_dataset(train_data if rank == 0 else None, comm, shuffle=True)
        val_data = chainermn.scatter_dataset(val_data if rank == 0 else None, comm, shuffle=True)
    if args.loaderjob == 0:
        train_iter = kusari.iterators.SerialIterator(train_data, args.batchsize)
        val_iter = kusari.iterators.SerialIterator(val_data, args.batchsize, repeat=False, shuffle=False)
    else:
        train_iter = kusari.iterators.MultiprocessIterator(train_data, args.batchsize, n_processes=args.loaderjob)
        val_iter = kusari.iterators.MultiprocessIterator(val_data, args.batchsize, repeat=False, shuffle=False,
                                                         n_processes=args.loaderjob)

    optimizer = kusari.optimizers.CorrectedMomentumSGD(lr=lr, momentum=args.momentum)
    if comm is not None:
        optimizer = chainermn.create_multi_node_optimizer(optimizer, comm)
    optimizer.setup(model)
    for param in model.params():
        if param.name not in ("beta", "gamma"):
            param.update_rule.add_hook(WeightDecay(args.weight_decay))
    model.to_device(device)

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, "epoch"), out=args.out)

    @make_shift("lr")
    def warmup_and_exponential_shift(trainer):
        return learning_rate(lr, trainer.updater.epoch_detail)

    trainer.extend(warmup_and_exponential_shift)
    evaluator = extensions.Evaluator(val_iter, model, device=device)
    if comm is not None:
        evaluator = chainermn.create_multi_node_evaluator(evaluator, comm)
    trainer.extend(evaluator, trigger=(1, "epoch"))
    if rank == 0:
        log_interval = 0.1, "epoch"
        common.extend_reports(trainer, ["iteration", "epoch", "elapsed_time", "lr", "main/loss", "validation/main/loss",
                                        "main/accuracy", "validation/main/accuracy"],
                              {"loss.png": ["main/loss", "validation/main/loss"],
                               "accuracy.png": ["main/accuracy", "validation/main/accuracy"]},
                              log_interval, (1, "epoch"))
        trainer.extend(extensions.snapshot(savefun=common.save_npz), trigger=(1, "epoch"))
        trainer.extend(extensions.snapshot_object(extractor, "snapshot_model_{.updater.epoch}.npz",
                                                  savefun=common.save_npz),
                       trigger=(args.epoch, "epoch"))
    common.resume(trainer, args.resume)
    trainer.run()


if __name__ == "__main__":
    main()
