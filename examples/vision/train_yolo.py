#!/usr/bin/env python
"""Train YOLOv2 or YOLOv3 on PASCAL VOC 2007+2012 trainval, scored on VOC 2007 test (VOC07 mAP).

ChainerCV ships no YOLO training (its examples/yolo converts darknet's weights), so nothing here is
ChainerCV's: the losses are the papers' (:mod:`kusari.vision.links.model.yolo.yolo_train_chain`) and the
schedule is darknet's VOC configuration (yolov2-voc.cfg / yolov3-voc.cfg): batches of 64 images,
MomentumSGD (lr 1e-3, momentum 0.9, weight decay 5e-4), a burn-in of 1000 iterations (lr x (i /
1000) ** 4), /10 at 40k and 60k of 80.2k iterations (YOLOv2) or 40k and 45k of 50.2k (YOLOv3). The
augmentation is ChainerCV's SSD pipeline (photometric distortion, expansion, constrained crops,
random interpolation, flips) at the model's 416x416 input, pixels scaled to [0, 1]; darknet's own
(jitter, HSV, multi-scale inputs) is not reproduced. Start from ImageNet weights with
``--pretrained-model <npz>`` where you have them (ChainerCV publishes none for the backbones).

    python train_yolo.py --model yolo_v3 --gpu 0
"""
import argparse

import numpy

import _train_common as common
import kusari
from kusari import training
from kusari.optimizer_hooks import WeightDecay
from kusari.training import extensions, triggers
from kusari.vision import transforms
from kusari.vision.chainer_experimental.training.extensions import make_shift
from kusari.vision.extensions import DetectionVOCEvaluator
from kusari.vision.links import YOLOv2, YOLOv3
from kusari.vision.links.model.ssd import (random_crop_with_bbox_constraints, random_distort,
                                           resize_with_random_interpolation)
from kusari.vision.links.model.yolo.yolo_train_chain import YOLOTrainChain

MODELS = {"yolo_v2": (YOLOv2, 80200, (40000, 60000)), "yolo_v3": (YOLOv3, 50200, (40000, 45000))}


class Transform:
    """SSD's augmentation at ``size`` x ``size``: ``(img, bbox, label)`` -> the same, img in [0, 1]."""

    def __init__(self, size: int):
        self.size = size

    def __call__(self, in_data):
        img, bbox, label = in_data
        img = random_distort(img)
        if numpy.random.randint(2):
            img, param = transforms.random_expand(img, fill=127.5, return_param=True)
            bbox = transforms.translate_bbox(bbox, y_offset=param["y_offset"], x_offset=param["x_offset"])
        img, param = random_crop_with_bbox_constraints(img, bbox, return_param=True)
        bbox, param = transforms.crop_bbox(bbox, y_slice=param["y_slice"], x_slice=param["x_slice"],
                                           allow_outside_center=False, return_param=True)
        label = label[param["index"]]
        _, H, W = img.shape
        img = resize_with_random_interpolation(img, (self.size, self.size))
        bbox = transforms.resize_bbox(bbox, (H, W), (self.size, self.size))
        img, param = transforms.random_flip(img, x_random=True, return_param=True)
        bbox = transforms.flip_bbox(bbox, (self.size, self.size), x_flip=param["x_flip"])
        # crops may leave boxes of no area at the border, which YOLO's targets refuse
        keep = ((bbox[:, 2:] - bbox[:, :2]) > 0).all(axis=1)
        return (img / 255).astype(numpy.float32), bbox[keep], label[keep]


def converter(batch, device=None):
    """Images stacked on ``device``; boxes and labels as lists (their counts differ)."""
    imgs = numpy.stack([img for img, _, _ in batch])
    if device is not None:
        imgs = device.send(imgs)
    return imgs, [bbox for _, bbox, _ in batch], [label for _, _, label in batch]


def learning_rate(iteration: int, base_lr: float, steps, burn_in: int = 1000) -> float:
    """darknet's 'steps' policy with burn-in: ``base_lr * (iteration / burn_in) ** 4`` for the first
    ``burn_in`` iterations, then divided by 10 at each of ``steps``."""
    if iteration < burn_in:
        return base_lr * (iteration / burn_in) ** 4
    return base_lr * 0.1 ** sum(iteration >= step for step in steps)


def main(argv=None):
    parser = argparse.ArgumentParser(description="kusari.vision training example: YOLOv2 / YOLOv3 (not in ChainerCV)")
    parser.add_argument("--model", choices=tuple(MODELS), default="yolo_v3")
    parser.add_argument("--batchsize", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--iteration", type=int, help="default: darknet's (YOLOv2 80200, YOLOv3 50200)")
    parser.add_argument("--step", type=int, nargs="*",
                        help="iterations where the learning rate is divided by 10 (default: darknet's)")
    parser.add_argument("--burn-in", type=int, default=1000, help="iterations of the learning rate's warm-up")
    parser.add_argument("--ignore-thresh", type=float, default=0.5,
                        help="IoU above which an unassigned prediction is not pushed to 'no object'")
    parser.add_argument("--gpu", type=int, default=-1)
    parser.add_argument("--pretrained-model", default="none", help="'none' (random) or a .npz file")
    parser.add_argument("--test-batchsize", type=int, default=8)
    parser.add_argument("--loaderjob", type=int, default=None,
                        help="data loading processes (0: load in this process)")
    parser.add_argument("--log-interval", type=int, default=10, help="iterations between log lines")
    common.add_eval_interval_argument(parser)
    parser.add_argument("--out", default="result")
    parser.add_argument("--resume", help="a trainer snapshot to continue from")
    parser.add_argument("--seed", type=int, default=0)
    common.add_detection_dataset_arguments(parser, "voc0712")
    args = parser.parse_args(argv)
    script = "train_yolo.py"

    common.seed(args.seed)
    model_class, default_iteration, default_steps = MODELS[args.model]
    iteration = default_iteration if args.iteration is None else args.iteration
    steps = list(default_steps if args.step is None else args.step)
    train, test, label_names = common.detection_datasets(script, args)
    pretrained = None if args.pretrained_model == "none" else args.pretrained_model
    model = common.load_or_exit(script, f"the pretrained model {pretrained!r}",
                                "give --pretrained-model none to start from random weights, or a .npz file",
                                lambda: model_class(n_fg_class=len(label_names), pretrained_model=pretrained))
    model.use_preset("evaluate")
    train_chain = YOLOTrainChain(model, ignore_thresh=args.ignore_thresh)
    device = common.get_device(args.gpu)
    train_chain.to_device(device)

    train = kusari.datasets.TransformDataset(train, Transform(model.insize))
    if args.loaderjob == 0:
        train_iter = kusari.iterators.SerialIterator(train, args.batchsize)
    else:
        train_iter = kusari.iterators.MultiprocessIterator(train, args.batchsize, n_processes=args.loaderjob)
    optimizer = kusari.optimizers.MomentumSGD(momentum=0.9)
    optimizer.setup(train_chain)
    optimizer.add_hook(WeightDecay(0.0005))

    updater = training.updaters.StandardUpdater(train_iter, optimizer, converter=converter, device=device)
    trainer = training.Trainer(updater, (iteration, "iteration"), args.out)

    @make_shift("lr")
    def lr_schedule(trainer):
        return learning_rate(trainer.updater.iteration, args.lr, steps, args.burn_in)
    trainer.extend(lr_schedule)

    test_iter = kusari.iterators.SerialIterator(test, args.test_batchsize, repeat=False, shuffle=False)
    trainer.extend(DetectionVOCEvaluator(test_iter, model, use_07_metric=True, label_names=label_names),
                   trigger=common.evaluation_trigger(args.eval_interval, steps + [iteration]))
    log_interval = args.log_interval, "iteration"
    common.extend_reports(trainer, ["epoch", "iteration", "lr", "main/loss", "main/loss/loc", "main/loss/obj",
                                    "main/loss/conf", "validation/main/map"],
                          {"loss.png": ["main/loss"], "map.png": ["validation/main/map"]}, log_interval, log_interval)
    trainer.extend(extensions.snapshot(savefun=common.save_npz),
                   trigger=triggers.ManualScheduleTrigger(steps + [iteration], "iteration"))
    trainer.extend(extensions.snapshot_object(model, "model_iter_{.updater.iteration}", savefun=common.save_npz),
                   trigger=(iteration, "iteration"))
    common.resume(trainer, args.resume)
    trainer.run()


if __name__ == "__main__":
    main()
