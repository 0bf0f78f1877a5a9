#!/usr/bin/env python
"""Train Faster R-CNN (VGG-16) on PASCAL VOC 2007 trainval, scored on VOC 2007 test (ChainerCV's
examples/faster_rcnn/train.py: same arguments, defaults and schedule).

    python train_faster_rcnn.py [--dataset voc0712] [--gpu 0]

One image per iteration, MomentumSGD (lr 1e-3, momentum 0.9, weight decay 5e-4), the learning rate
divided by 10 every ``--step-size`` iterations; the model is evaluated (VOC07 11-point mAP) at the first
step and at the end. ``--data-dir`` trains on any dataset in VOC's layout instead.
"""
import argparse

import numpy

import _train_common as common
import kusari
from kusari import training
from kusari.model_zoo.models.faster_rcnn_small import FasterRCNNSmall
from kusari.training import extensions, triggers
from kusari.vision import transforms
from kusari.vision.extensions import DetectionVOCEvaluator
from kusari.vision.links import FasterRCNNVGG16
from kusari.vision.links.model.faster_rcnn import FasterRCNNTrainChain


class Transform:
    """Scale the image as the model's ``prepare`` does (shorter side ``min_size``, longer at most
    ``max_size``), scale the boxes with it, and flip both horizontally at random; the scale goes along."""

    def __init__(self, faster_rcnn):
        self.faster_rcnn = faster_rcnn

    def __call__(self, in_data):
        img, bbox, label = in_data
        _, H, W = img.shape
        img = self.faster_rcnn.prepare(img)
        _, o_H, o_W = img.shape
        bbox = transforms.resize_bbox(bbox, (H, W), (o_H, o_W))
        img, param = transforms.random_flip(img, x_random=True, return_param=True)
        bbox = transforms.flip_bbox(bbox, (o_H, o_W), x_flip=param["x_flip"])
        return img, bbox, label, numpy.float32(o_H / H)


def main(argv=None):
    parser = argparse.ArgumentParser(description="kusari.vision training example: Faster R-CNN")
    parser.add_argument("--gpu", "-g", type=int, default=-1)
    parser.add_argument("--lr", "-l", type=float, default=1e-3)
    parser.add_argument("--out", "-o", default="result", help="output directory")
    parser.add_argument("--seed", "-s", type=int, default=0)
    parser.add_argument("--step-size", "-ss", type=int, default=50000,
                        help="iterations between divisions of the learning rate by 10")
    parser.add_argument("--iteration", "-i", type=int, default=70000)
    parser.add_argument("--model", choices=("vgg16", "small"), default="vgg16",
                        help="ChainerCV's FasterRCNNVGG16, or a small network trained from scratch (CPU runs)")
    parser.add_argument("--pretrained-model", default="imagenet",
                        help="vgg16: 'imagenet' (VGG-16's ImageNet weights), 'none' (random) or a .npz file")
    parser.add_argument("--min-size", type=int, default=600, help="the shorter image side the model sees")
    parser.add_argument("--max-size", type=int, default=1000, help="the longest image side the model sees")
    parser.add_argument("--loaderjob", type=int, default=None,
                        help="data loading processes (0: load in this process)")
    parser.add_argument("--log-interval", type=int, default=20, help="iterations between log lines")
    parser.add_argument("--plot-interval", type=int, default=3000, help="iterations between plots")
    common.add_eval_interval_argument(parser)
    parser.add_argument("--resume", help="a trainer snapshot to continue from")
    common.add_detection_dataset_arguments(parser, "voc07")
    args = parser.parse_args(argv)
    script = "train_faster_rcnn.py"

    common.seed(args.seed)
    train, test, label_names = common.detection_datasets(script, args)
    train = common.with_boxes(script, train)
    if args.model == "small":
        if args.pretrained_model not in ("none", "imagenet"):
            parser.error("--model small takes no --pretrained-model (there are no published weights for it)")
        faster_rcnn = FasterRCNNSmall(len(label_names), min_size=args.min_size, max_size=args.max_size)
    else:
        pretrained = None if args.pretrained_model == "none" else args.pretrained_model
        faster_rcnn = common.load_or_exit(
            script, f"the pretrained model {pretrained!r}",
            "give --pretrained-model none to start from random weights, or a .npz file",
            lambda: FasterRCNNVGG16(n_fg_class=len(label_names), pretrained_model=pretrained,
                                    min_size=args.min_size, max_size=args.max_size))
    faster_rcnn.use_preset("evaluate")
    model = FasterRCNNTrainChain(faster_rcnn)
    device = common.get_device(args.gpu)
    model.to_device(device)
    optimizer = kusari.optimizers.MomentumSGD(lr=args.lr, momentum=0.9)
    optimizer.setup(model)
    optimizer.add_hook(kusari.optimizer_hooks.WeightDecay(rate=0.0005))

    train = kusari.datasets.TransformDataset(train, Transform(faster_rcnn))
    if args.loaderjob == 0:
        train_iter = kusari.iterators.SerialIterator(train, batch_size=1)
    else:
        train_iter = kusari.iterators.MultiprocessIterator(train, batch_size=1, n_processes=args.loaderjob,
                                                           shared_mem=100000000)
    test_iter = kusari.iterators.SerialIterator(test, batch_size=1, repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.iteration, "iteration"), out=args.out)

    trainer.extend(extensions.ExponentialShift("lr", 0.1), trigger=(args.step_size, "iteration"))
    milestones = [args.step_size, args.iteration]
    trainer.extend(DetectionVOCEvaluator(test_iter, model.faster_rcnn, use_07_metric=True, label_names=label_names),
                   trigger=common.evaluation_trigger(args.eval_interval, milestones))
    common.extend_reports(trainer, ["iteration", "epoch", "elapsed_time", "lr", "main/loss", "main/roi_loc_loss",
                                    "main/roi_cls_loss", "main/rpn_loc_loss", "main/rpn_cls_loss",
                                    "validation/main/map"],
                          {"loss.png": ["main/loss"], "map.png": ["validation/main/map"]},
                          (args.log_interval, "iteration"), (args.plot_interval, "iteration"))
    trainer.extend(extensions.snapshot(savefun=common.save_npz),
                   trigger=triggers.ManualScheduleTrigger(milestones, "iteration"))
    trainer.extend(extensions.snapshot_object(model.faster_rcnn, "snapshot_model.npz", savefun=common.save_npz),
                   trigger=(args.iteration, "iteration"))
    common.resume(trainer, args.resume)
    trainer.run()


if __name__ == "__main__":
    main()
