#!/usr/bin/env python
"""Train Faster R-CNN or Mask R-CNN with a ResNet feature pyramid on MS COCO 2017 train, scored on COCO
2017 val (ChainerCV's examples/fpn/train_multi.py: same arguments, defaults and schedule).

    mpiexec -n 8 python train_fpn.py --model faster_rcnn_fpn_resnet50 --gpu 0 --communicator pure_nccl

Batches of ``--batchsize`` images (16 by default, over all ranks), MomentumSGD (momentum 0.9, weight decay
1e-4) at lr 0.02 x batchsize / 16, warmed up linearly from a third of it over 500 iterations and
divided by 10 at each ``--step``; ``--iteration`` and ``--step`` count batches of 16 images, as in
ChainerCV (with ``--batchsize 8`` the run is twice as many iterations). ResNet's ``conv1`` and ``res2``
and every batch normalization stay fixed (from ``--pretrained-model none``, the batch normalizations
learn and normalize with each batch's statistics instead: fixed at their initial mean 0 and variance 1
they let a random ResNet's activations grow until the loss diverges). Images are flipped at random, scaled (shorter side
``--min-size``, longer at most ``--max-size``) and the mean subtracted; the loss is
:class:`~kusari.vision.links.model.fpn.fpn_train_chain.FPNTrainChain`'s. Evaluated at the steps and the
end with COCO's metrics (``DetectionCOCOEvaluator``, or ``InstanceSegmentationCOCOEvaluator`` for
Mask R-CNN). ``--data-dir`` trains on any dataset in COCO's layout.
"""
import argparse

import numpy
import PIL.Image

import _train_common as common
import kusari
import kusari.links as L
from kusari import training
from kusari.training import extensions
from kusari.vision import transforms
from kusari.vision.chainer_experimental.datasets.sliceable import TransformDataset
from kusari.vision.chainer_experimental.training.extensions import make_shift
from kusari.vision.datasets import (COCOBboxDataset, COCOInstanceSegmentationDataset, coco_bbox_label_names,
                                    coco_instance_segmentation_label_names)
from kusari.vision.extensions import DetectionCOCOEvaluator, InstanceSegmentationCOCOEvaluator
from kusari.vision.links import (FasterRCNNFPNResNet50, FasterRCNNFPNResNet101, MaskRCNNFPNResNet50,
                                 MaskRCNNFPNResNet101)
from kusari.vision.links.model.fpn.fpn_train_chain import FPNTrainChain
from kusari.vision.links.model.fpn.misc import scale_img

MODELS = {"faster_rcnn_fpn_resnet50": FasterRCNNFPNResNet50, "faster_rcnn_fpn_resnet101": FasterRCNNFPNResNet101,
          "mask_rcnn_fpn_resnet50": MaskRCNNFPNResNet50, "mask_rcnn_fpn_resnet101": MaskRCNNFPNResNet101}
COCO_HOW_TO_GET = ("COCO 2017 downloads into $KUSARI_DATASET_ROOT/coco (default ~/.kusari/dataset/coco) the first "
                   "time; offline, put train2017.zip, val2017.zip and annotations_trainval2017.zip in a folder named "
                   "by KUSARI_DOWNLOAD_MIRROR, or give --data-dir a folder in COCO's layout "
                   "(images/<split>2017/, annotations/instances_<split>2017.json)")


class Transform:
    """Flip at random, scale as ``scale_img`` and subtract ``mean``; boxes (and masks) follow.
    ``(img, bbox, label[, mask])`` -> ``(img, bbox, label[, mask])``."""

    def __init__(self, min_size: int, max_size: int, mean):
        self.min_size = min_size
        self.max_size = max_size
        self.mean = mean

    def __call__(self, in_data):
        img, bbox, label = in_data[:3]
        img, param = transforms.random_flip(img, x_random=True, return_param=True)
        bbox = transforms.flip_bbox(bbox, img.shape[1:], x_flip=param["x_flip"])
        img, scale = scale_img(img, self.min_size, self.max_size)
        img -= self.mean
        bbox = bbox * scale
        if len(in_data) == 3:
            return img, bbox, label
        # kusari.vision's image transforms take numbers, not bools
        mask = transforms.flip(in_data[3].astype(numpy.float32), x_flip=param["x_flip"])
        mask = transforms.resize(mask, img.shape[1:], interpolation=PIL.Image.NEAREST).astype(bool)
        return img, bbox, label, mask


def converter(batch, device=None):
    """The batch as lists per field, on the host: FPNTrainChain pads the images and moves them."""
    return tuple(list(field) for field in zip(*batch))


def learning_rate(iteration: int, batchsize: int, steps) -> float:
    """ChainerCV's FPN schedule at ``iteration``: 0.02 x batchsize / 16, warmed up linearly from a
    third over 500 iterations, divided by 10 at each of ``steps`` (counted in batches of 16 images)."""
    base_lr = 0.02 * batchsize / 16
    warm_up_duration, warm_up_rate = 500, 1 / 3
    if iteration < warm_up_duration:
        return base_lr * (warm_up_rate + (1 - warm_up_rate) * iteration / warm_up_duration)
    return base_lr * 0.1 ** sum(iteration >= step * 16 / batchsize for step in steps)


def datasets(script: str, args, mask: bool):
    """``(train, test, label_names)``: COCO 2017 train (img, bbox, label[, mask]) and val (with areas
    and crowd flags, as COCO's evaluation wants), from ``--data-dir`` or the dataset root."""
    data_dir = args.data_dir or "auto"
    if mask:
        def make():
            return (COCOInstanceSegmentationDataset(data_dir, split="train", return_bbox=True),
                    COCOInstanceSegmentationDataset(data_dir, split="val", return_area=True, return_crowded=True))
        label_names = coco_instance_segmentation_label_names
    else:
        def make():
            return (COCOBboxDataset(data_dir, split="train"),
                    COCOBboxDataset(data_dir, split="val", return_area=True, return_crowded=True))
        label_names = coco_bbox_label_names
    what = "COCO 2017" if args.data_dir is None else f"the COCO-format dataset in {args.data_dir}"
    train, test = common.load_or_exit(script, what, COCO_HOW_TO_GET, make)
    keys = ("img", "bbox", "label", "mask") if mask else ("img", "bbox", "label")
    return train.slice[:, keys], test, label_names


def main(argv=None):
    parser = argparse.ArgumentParser(description="kusari.vision training example: FPN Faster/Mask R-CNN")
    parser.add_argument("--model", choices=tuple(MODELS), default="faster_rcnn_fpn_resnet50")
    parser.add_argument("--batchsize", type=int, default=16, help="images per iteration (over all ranks)")
    parser.add_argument("--iteration", type=int, default=90000, help="iterations of 16 images")
    parser.add_argument("--step", type=int, nargs="*", default=[60000, 80000],
                        help="iterations (of 16 images) where the learning rate is divided by 10")
    parser.add_argument("--out", default="result")
    parser.add_argument("--resume", help="a trainer snapshot to continue from")
    parser.add_argument("--gpu", type=int, default=-1)
    parser.add_argument("--communicator", help="kusari.distributed communicator (ChainerCV: pure_nccl); "
                                                "launch with mpiexec for several processes")
    parser.add_argument("--pretrained-model", default="imagenet",
                        help="'imagenet' (ResNet's ImageNet weights), 'none' (random) or a .npz file")
    parser.add_argument("--data-dir", help="a folder in COCO's layout to use instead of COCO 2017")
    parser.add_argument("--min-size", type=int, default=800, help="the shorter image side the model sees")
    parser.add_argument("--max-size", type=int, default=1333, help="the longest image side the model sees")
    parser.add_argument("--loaderjob", type=int, default=None,
                        help="data loading processes (default: one per image of a rank's batch; 0: this process)")
    parser.add_argument("--log-interval", type=int, default=10, help="iterations between log lines")
    parser.add_argument("--snapshot-interval", type=int, default=10000, help="iterations between trainer snapshots")
    common.add_eval_interval_argument(parser)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    script = "train_fpn.py"

    common.seed(args.seed)
    comm = common.create_communicator(args.communicator, args.gpu)
    rank, size = (0, 1) if comm is None else (comm.rank, comm.size)
    device = common.get_device(comm.intra_rank if comm is not None and args.gpu >= 0 else args.gpu)
    if args.batchsize % size:
        parser.error(f"--batchsize {args.batchsize} must be a multiple of the {size} ranks")
    mask = args.model.startswith("mask_rcnn")
    train, test, label_names = datasets(script, args, mask)

    pretrained = None if args.pretrained_model == "none" else args.pretrained_model
    model = common.load_or_exit(script, f"the pretrained model {pretrained!r}",
                                "give --pretrained-model none to start from random weights, or a .npz file",
                                lambda: MODELS[args.model](n_fg_class=len(label_names), pretrained_model=pretrained,
                                                           min_size=args.min_size, max_size=args.max_size))
    model.use_preset("evaluate")
    fix_bn = pretrained is not None
    if not fix_bn:
        print(f"{script}: from random weights the batch normalizations learn and use each batch's statistics")
    train_chain = FPNTrainChain(model, fix_batch_statistics=fix_bn)
    train_chain.to_device(device)

    train = TransformDataset(train, train.keys, Transform(args.min_size, args.max_size, model.extractor.mean))
    if comm is not None:
        import kusari.distributed as chainermn
        indices = chainermn.scatter_dataset(numpy.arange(len(train)) if rank == 0 else None, comm, shuffle=True)
        train = train.slice[numpy.asarray(indices)]
    per_rank = args.batchsize // size
    if args.loaderjob == 0:
        train_iter = kusari.iterators.SerialIterator(train, per_rank)
    else:
        train_iter = kusari.iterators.MultiprocessIterator(train, per_rank, n_processes=args.loaderjob or per_rank,
                                                           shared_mem=100 * 1000 * 1000 * 4)

    optimizer = kusari.optimizers.MomentumSGD()
    if comm is not None:
        optimizer = chainermn.create_multi_node_optimizer(optimizer, comm)
    optimizer.setup(train_chain)
    optimizer.add_hook(kusari.optimizer_hooks.WeightDecay(0.0001))
    model.extractor.base.conv1.disable_update()
    model.extractor.base.res2.disable_update()
    for link in model.links():
        if fix_bn and isinstance(link, L.BatchNormalization):
            link.disable_update()

    n_iteration = args.iteration * 16 // args.batchsize
    steps = [step * 16 // args.batchsize for step in args.step]
    updater = training.updaters.StandardUpdater(train_iter, optimizer, converter=converter, device=device)
    trainer = training.Trainer(updater, (n_iteration, "iteration"), args.out)

    @make_shift("lr")
    def lr_schedule(trainer):
        return learning_rate(trainer.updater.iteration, args.batchsize, args.step)
    trainer.extend(lr_schedule)

    if rank == 0:
        test_iter = kusari.iterators.SerialIterator(test, 1, repeat=False, shuffle=False)
        evaluator = (InstanceSegmentationCOCOEvaluator if mask else DetectionCOCOEvaluator)(
            test_iter, model, label_names=label_names)
        trainer.extend(evaluator, trigger=common.evaluation_trigger(args.eval_interval, steps + [n_iteration]))
        map_key = "validation/main/map/iou=0.50:0.95/area=all/max_dets=100"
        common.extend_reports(trainer, ["epoch", "iteration", "lr", "main/loss", "main/loss/rpn/loc",
                                        "main/loss/rpn/conf", "main/loss/bbox_head/loc", "main/loss/bbox_head/conf",
                                        "main/loss/mask_head", map_key],
                              {"loss.png": ["main/loss"], "map.png": [map_key]},
                              (args.log_interval, "iteration"), (args.log_interval, "iteration"))
        trainer.extend(extensions.snapshot(savefun=common.save_npz), trigger=(args.snapshot_interval, "iteration"))
        trainer.extend(extensions.snapshot_object(model, "model_iter_{.updater.iteration}", savefun=common.save_npz),
                       trigger=(n_iteration, "iteration"))
    common.resume(trainer, args.resume)
    trainer.run()


if __name__ == "__main__":
    main()
