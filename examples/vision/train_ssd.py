#!/usr/bin/env python
"""Train SSD300 / SSD512 on PASCAL VOC 2007+2012 trainval, scored on VOC 2007 test (ChainerCV's
examples/ssd/train.py and train_multi.py: same arguments, defaults and schedule).

    python train_ssd.py [--model ssd300] [--gpu 0]
    mpiexec -n 8 python train_ssd.py --gpu 0 --communicator pure_nccl   # one GPU per rank

The learning rate starts at 1e-3 and is divided by 10 at each ``--step``; biases learn twice as fast
and have no weight decay. ``--data-dir`` trains on any dataset in VOC's layout instead.
"""
import argparse
import copy

import numpy

import _train_common as common
import kusari
from kusari import training
from kusari.optimizer_hooks import WeightDecay
from kusari.training import extensions, triggers
from kusari.vision import transforms
from kusari.vision.extensions import DetectionVOCEvaluator
from kusari.vision.links import SSD300, SSD512
from kusari.vision.links.model.ssd import (GradientScaling, multibox_loss, random_crop_with_bbox_constraints,
                                           random_distort, resize_with_random_interpolation)


class MultiboxTrainChain(kusari.Chain):
    """SSD's training loss: ``alpha * localization + confidence`` with ``k`` negatives per positive
    (hard negative mining); ``comm`` normalizes by the positives of all ranks."""

    def __init__(self, model, alpha=1, k=3, comm=None):
        super().__init__()
        with self.init_scope():
            self.model = model
        self.alpha = alpha
        self.k = k
        self.comm = comm

    def forward(self, imgs, gt_mb_locs, gt_mb_labels):
        """imgs (B, 3, insize, insize), gt_mb_locs (B, K, 4), gt_mb_labels (B, K) -> the loss."""
        mb_locs, mb_confs = self.model(imgs)
        loc_loss, conf_loss = multibox_loss(mb_locs, mb_confs, gt_mb_locs, gt_mb_labels, self.k, self.comm)
        loss = loc_loss * self.alpha + conf_loss
        kusari.report({"loss": loss, "loss/loc": loc_loss, "loss/conf": conf_loss}, self)
        return loss


class Transform:
    """SSD's augmentation (colour distortion, zoom out, constrained crop, resize with a random
    interpolation, horizontal flip), then the mean subtracted and the boxes encoded on the default boxes."""

    def __init__(self, coder, size, mean):
        self.coder = copy.copy(coder)   # encoding runs on the CPU, in the iterator
        self.coder.to_cpu()
        self.size = size
        self.mean = mean

    def __call__(self, in_data):
        img, bbox, label = in_data
        img = random_distort(img)
        if numpy.random.randint(2):
            img, param = transforms.random_expand(img, fill=self.mean, return_param=True)
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
        img -= self.mean
        mb_loc, mb_label = self.coder.encode(bbox, label)
        return img, mb_loc, mb_label


def main(argv=None):
    parser = argparse.ArgumentParser(description="kusari.vision training example: SSD")
    parser.add_argument("--model", choices=("ssd300", "ssd512"), default="ssd300")
    parser.add_argument("--batchsize", type=int, default=32, help="images per iteration (over all ranks)")
    parser.add_argument("--test-batchsize", type=int, default=16)
    parser.add_argument("--iteration", type=int, default=120000)
    parser.add_argument("--step", type=int, nargs="*", default=[80000, 100000],
                        help="iterations where the learning rate is divided by 10 (and the model is evaluated)")
    parser.add_argument("--gpu", type=int, default=-1)
    parser.add_argument("--communicator", help="kusari.distributed communicator (e.g. pure_nccl); "
                                                "launch with mpiexec for several processes")
    parser.add_argument("--pretrained-model", default="imagenet",
                        help="'imagenet' (VGG-16's ImageNet weights), 'none' (random) or a .npz file")
    parser.add_argument("--loaderjob", type=int, default=None,
                        help="data loading processes (0: load in this process)")
    parser.add_argument("--log-interval", type=int, default=10, help="iterations between log lines")
    common.add_eval_interval_argument(parser)
    parser.add_argument("--out", default="result")
    parser.add_argument("--resume", help="a trainer snapshot to continue from")
    parser.add_argument("--seed", type=int, default=0)
    common.add_detection_dataset_arguments(parser, "voc0712")
    args = parser.parse_args(argv)
    script = "train_ssd.py"

    common.seed(args.seed)
    comm = common.create_communicator(args.communicator, args.gpu)
    rank, size = (0, 1) if comm is None else (comm.rank, comm.size)
    device = common.get_device(comm.intra_rank if comm is not None and args.gpu >= 0 else args.gpu)
    if args.batchsize % size:
        parser.error(f"--batchsize {args.batchsize} must be a multiple of the {size} ranks")

    train, test, label_names = common.detection_datasets(script, args)
    pretrained = None if args.pretrained_model == "none" else args.pretrained_model
    model = common.load_or_exit(script, f"the pretrained model {pretrained!r}",
                                "give --pretrained-model none to start from random weights, or a .npz file",
                                lambda: {"ssd300": SSD300, "ssd512": SSD512}[args.model](
                                    n_fg_class=len(label_names), pretrained_model=pretrained))
    model.use_preset("evaluate")
    train_chain = MultiboxTrainChain(model, comm=comm)
    train_chain.to_device(device)

    train = kusari.datasets.TransformDataset(train, Transform(model.coder, model.insize, model.mean))
    if comm is not None:
        import kusari.distributed as chainermn
        train = chainermn.scatter_dataset(train if rank == 0 else None, comm, shuffle=True)
    if args.loaderjob == 0:
        train_iter = kusari.iterators.SerialIterator(train, args.batchsize // size)
    else:
        train_iter = kusari.iterators.MultiprocessIterator(train, args.batchsize // size, n_processes=args.loaderjob)

    # the initial learning rate (1e-3) is set by ExponentialShift's init
    optimizer = kusari.optimizers.MomentumSGD()
    if comm is not None:
        optimizer = chainermn.create_multi_node_optimizer(optimizer, comm)
    optimizer.setup(train_chain)
    for param in train_chain.params():
        if param.name == "b":
            param.update_rule.add_hook(GradientScaling(2))
        else:
            param.update_rule.add_hook(WeightDecay(0.0005))

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.iteration, "iteration"), args.out)
    trainer.extend(extensions.ExponentialShift("lr", 0.1, init=1e-3),
                   trigger=triggers.ManualScheduleTrigger(args.step, "iteration"))
    if rank == 0:
        test_iter = kusari.iterators.SerialIterator(test, args.test_batchsize, repeat=False, shuffle=False)
        trainer.extend(DetectionVOCEvaluator(test_iter, model, use_07_metric=True, label_names=label_names),
                       trigger=common.evaluation_trigger(args.eval_interval, args.step + [args.iteration]))
        log_interval = args.log_interval, "iteration"
        common.extend_reports(trainer, ["epoch", "iteration", "lr", "main/loss", "main/loss/loc", "main/loss/conf",
                                        "validation/main/map"],
                              {"loss.png": ["main/loss"], "map.png": ["validation/main/map"]},
                              log_interval, log_interval)
        trainer.extend(extensions.snapshot(savefun=common.save_npz),
                       trigger=triggers.ManualScheduleTrigger(args.step + [args.iteration], "iteration"))
        trainer.extend(extensions.snapshot_object(model, "model_iter_{.updater.iteration}",
                                                  savefun=common.save_npz),
                       trigger=(args.iteration, "iteration"))
    common.resume(trainer, args.resume)
    trainer.run()


if __name__ == "__main__":
    main()
