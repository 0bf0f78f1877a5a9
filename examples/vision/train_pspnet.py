#!/usr/bin/env python
"""Train PSPNet (dilated ResNet-50/101) on Cityscapes (fine labels) or ADE20K, scored on their val split
(ChainerCV's examples/pspnet/train_multi.py: same arguments, defaults and schedule).

    mpiexec -n 8 python train_pspnet.py --dataset cityscapes --model pspnet_resnet101 --gpu 0 \\
        --communicator pure_nccl

``--batchsize`` images per process (2), MomentumSGD (lr 1e-2, momentum 0.9) decayed polynomially
(power 0.9) to 0 over the run (Cityscapes 90k iterations at 713x713 crops, ADE20K 150k at 473x473),
weight decay 1e-4 on all but the batch normalizations' scales and shifts, gradients of the head (the
pyramid pooling and the classifier, and the auxiliary classifier) scaled by 10. The loss is the
softmax cross entropy of the main classifier plus 0.4 times that of an auxiliary classifier on
``res4`` (dropout 0.1 before each). Augmentation: a random scale in [0.5, 2], a random crop, a
rotation in [-10, 10] degrees, a flip. With a communicator the batch normalizations are multi-node
ones (statistics over every process's batch), as in ChainerCV. Evaluated at the end (or every
``--eval-interval`` iterations) by ``SemanticSegmentationEvaluator``.
"""
import argparse

import numpy
import PIL.Image

import _train_common as common
import kusari
import kusari.functions as F
import kusari.links as L
from kusari import initializers, training
from kusari.training import extensions
from kusari.vision import transforms
from kusari.vision.chainer_experimental.datasets.sliceable import TransformDataset
from kusari.vision.datasets import (ADE20KSemanticSegmentationDataset, CityscapesSemanticSegmentationDataset,
                                    ade20k_semantic_segmentation_label_names,
                                    cityscapes_semantic_segmentation_label_names)
from kusari.vision.experimental.links import PSPNetResNet50, PSPNetResNet101
from kusari.vision.extensions import SemanticSegmentationEvaluator
from kusari.vision.links import Conv2DBNActiv
from kusari.vision.links.model.ssd import GradientScaling

DATASETS = {
    "cityscapes": {"input_size": (713, 713), "label_names": cityscapes_semantic_segmentation_label_names,
                   "iteration": 90000,
                   "how_to_get": "Cityscapes may not be redistributed: download leftImg8bit_trainvaltest.zip and "
                                 "gtFine_trainvaltest.zip from https://www.cityscapes-dataset.com/ and unpack them "
                                 "in $KUSARI_DATASET_ROOT/cityscapes, or give --data-dir that folder"},
    "ade20k": {"input_size": (473, 473), "label_names": ade20k_semantic_segmentation_label_names,
               "iteration": 150000,
               "how_to_get": "ADEChallengeData2016.zip downloads into $KUSARI_DATASET_ROOT/ade20k the first time; "
                             "offline, put it in a folder named by KUSARI_DOWNLOAD_MIRROR, or give --data-dir a "
                             "folder holding images/ and annotations/ in its layout"},
}
MODELS = {"pspnet_resnet50": PSPNetResNet50, "pspnet_resnet101": PSPNetResNet101}


class Transform:
    """ChainerCV's PSPNet augmentation: ``(img, label)`` (3, H, W), (H, W) -> the same at ``crop_size``.

    Scale by a factor drawn from ``scale_range`` (bicubic; labels nearest), crop ``crop_size`` at
    random (a square of the shorter side when the image is smaller), rotate by an angle in [-10, 10]
    degrees (labels filled with -1, ignored), resize up to ``crop_size`` where still smaller, flip
    half of the time, subtract ``mean``.
    """

    def __init__(self, mean, crop_size, scale_range=(0.5, 2.0)):
        self.mean = mean
        self.crop_size = tuple(crop_size)
        self.scale_range = scale_range

    def __call__(self, in_data):
        img, label = in_data
        _, H, W = img.shape
        scale = numpy.random.uniform(*self.scale_range)
        size = int(scale * H), int(scale * W)
        img = transforms.resize(img, size, PIL.Image.BICUBIC)
        # kusari.vision's image transforms take the labels as a float image (-1 survives NEAREST)
        label = transforms.resize(label[None].astype(numpy.float32), size, PIL.Image.NEAREST)
        if size[0] < self.crop_size[0] or size[1] < self.crop_size[1]:
            shorter = min(size)
            img, param = transforms.random_crop(img, (shorter, shorter), return_param=True)
        else:
            img, param = transforms.random_crop(img, self.crop_size, return_param=True)
        label = label[:, param["y_slice"], param["x_slice"]]
        angle = numpy.random.uniform(-10, 10)
        img = transforms.rotate(img, angle, expand=False)
        label = transforms.rotate(label, angle, expand=False, interpolation=PIL.Image.NEAREST, fill=-1)
        if img.shape[1] < self.crop_size[0] or img.shape[2] < self.crop_size[1]:
            img = transforms.resize(img, self.crop_size, PIL.Image.BICUBIC)
            label = transforms.resize(label, self.crop_size, PIL.Image.NEAREST)
        if numpy.random.rand() > 0.5:
            img = transforms.flip(img, x_flip=True)
            label = transforms.flip(label, x_flip=True)
        return (img - self.mean).astype(numpy.float32), label[0].astype(numpy.int32)


class TrainChain(kusari.Chain):
    """PSPNet's training loss: ``loss = main + 0.4 * aux``, softmax cross entropies (label -1 ignored)
    of the model's classifier and of an auxiliary one on the extractor's first output (``res4``):
    a 3x3 convolution of 512 channels with batch normalization and ReLU, dropout 0.1, a 3x3
    convolution to the classes, upsampled to the input. Reports ``loss``, ``loss/main``, ``loss/aux``."""

    def __init__(self, model):
        super().__init__()
        initialW = initializers.HeNormal()
        with self.init_scope():
            self.model = model
            # res4 of both dilated ResNets has 1024 channels
            self.aux_conv1 = Conv2DBNActiv(1024, 512, 3, 1, 1, initialW=initialW)
            self.aux_conv2 = L.Convolution2D(512, model.n_class, 3, 1, 1, False, initialW=initialW)

    def forward(self, imgs, labels):
        """imgs (N, 3, H, W) mean-subtracted, labels (N, H, W) int32 -> the loss, a scalar."""
        h_aux, h_main = self.model.extractor(imgs)
        h_aux = self.aux_conv2(F.dropout(self.aux_conv1(h_aux), ratio=0.1))
        h_aux = F.resize_images(h_aux, imgs.shape[2:])
        h_main = F.dropout(self.model.head_conv1(self.model.ppm(h_main)), ratio=0.1)
        h_main = F.resize_images(self.model.head_conv2(h_main), imgs.shape[2:])
        main_loss = F.softmax_cross_entropy(h_main, labels)
        aux_loss = F.softmax_cross_entropy(h_aux, labels)
        loss = main_loss + 0.4 * aux_loss
        kusari.report({"loss": loss, "loss/main": main_loss, "loss/aux": aux_loss}, self)
        return loss


def datasets(script: str, args):
    """``(train, val)`` of ``args.dataset`` (Cityscapes: fine labels)."""
    cfg = DATASETS[args.dataset]
    data_dir = args.data_dir or "auto"
    if args.dataset == "cityscapes":
        def make():
            return tuple(CityscapesSemanticSegmentationDataset(data_dir, label_resolution="fine", split=split)
                         for split in ("train", "val"))
    else:
        def make():
            return tuple(ADE20KSemanticSegmentationDataset(data_dir, split=split) for split in ("train", "val"))
    where = args.dataset if args.data_dir is None else f"{args.dataset} ({args.data_dir})"
    return common.load_or_exit(script, where, cfg["how_to_get"], make)


def main(argv=None):
    parser = argparse.ArgumentParser(description="kusari.vision training example: PSPNet")
    parser.add_argument("--data-dir", help="the dataset's folder (default: in the dataset root)")
    parser.add_argument("--dataset", choices=tuple(DATASETS), required=True)
    parser.add_argument("--model", choices=tuple(MODELS), required=True)
    parser.add_argument("--lr", default=1e-2, type=float)
    parser.add_argument("--batchsize", default=2, type=int, help="images per process")
    parser.add_argument("--out", default="result")
    parser.add_argument("--iteration", default=None, type=int,
                        help="default: the dataset's (Cityscapes 90000, ADE20K 150000)")
    parser.add_argument("--communicator", help="kusari.distributed communicator (ChainerCV: pure_nccl); "
                                                "launch with mpiexec for several processes")
    parser.add_argument("--gpu", type=int, default=-1)
    parser.add_argument("--pretrained-model", default="imagenet",
                        help="the extractor's: 'imagenet' (dilated ResNet's ImageNet weights), 'none' (random)")
    parser.add_argument("--input-size", type=int, help="the crop size (default: the dataset's, 713 or 473)")
    parser.add_argument("--loaderjob", type=int, default=2, help="data loading processes (0: this process)")
    parser.add_argument("--log-interval", type=int, default=10, help="iterations between log lines")
    common.add_eval_interval_argument(parser)
    parser.add_argument("--resume", help="a trainer snapshot to continue from")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    script = "train_pspnet.py"

    common.seed(args.seed)
    cfg = DATASETS[args.dataset]
    input_size = cfg["input_size"] if args.input_size is None else (args.input_size, args.input_size)
    n_iter = cfg["iteration"] if args.iteration is None else args.iteration
    comm = common.create_communicator(args.communicator, args.gpu)
    rank = 0 if comm is None else comm.rank
    device = common.get_device(comm.intra_rank if comm is not None and args.gpu >= 0 else args.gpu)
    train, val = datasets(script, args)
    label_names = cfg["label_names"]

    pretrained = None if args.pretrained_model == "none" else args.pretrained_model
    model = common.load_or_exit(script, f"the pretrained model {pretrained!r}",
                                "give --pretrained-model none to start from random weights",
                                lambda: MODELS[args.model](len(label_names), pretrained_model=pretrained,
                                                           input_size=input_size))
    train_chain = TrainChain(model)
    if comm is not None:
        import kusari.distributed as chainermn
        train_chain = chainermn.links.create_mnbn_model(train_chain, comm)
        model = train_chain.model
    train_chain.to_device(device)

    train = TransformDataset(train, ("img", "label"), Transform(model.mean, input_size))
    if comm is not None:
        indices = chainermn.scatter_dataset(numpy.arange(len(train)) if rank == 0 else None, comm, shuffle=True)
        train = train.slice[numpy.asarray(indices)]
    if args.loaderjob == 0:
        train_iter = kusari.iterators.SerialIterator(train, args.batchsize)
    else:
        train_iter = kusari.iterators.MultiprocessIterator(train, args.batchsize, n_processes=args.loaderjob)

    optimizer = kusari.optimizers.MomentumSGD(args.lr, 0.9)
    if comm is not None:
        optimizer = chainermn.create_multi_node_optimizer(optimizer, comm)
    optimizer.setup(train_chain)
    for param in train_chain.params():
        if param.name not in ("beta", "gamma"):
            param.update_rule.add_hook(kusari.optimizer_hooks.WeightDecay(1e-4))
    for link in (model.ppm, model.head_conv1, model.head_conv2, train_chain.aux_conv1, train_chain.aux_conv2):
        for param in link.params():
            param.update_rule.add_hook(GradientScaling(10))

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (n_iter, "iteration"), args.out)
    trainer.extend(extensions.PolynomialShift("lr", 0.9, n_iter, optimizer=optimizer), trigger=(1, "iteration"))
    if rank == 0:
        val_iter = kusari.iterators.SerialIterator(val, batch_size=1, repeat=False, shuffle=False)
        trainer.extend(SemanticSegmentationEvaluator(val_iter, model, label_names),
                       trigger=common.evaluation_trigger(args.eval_interval, [n_iter]))
        log_interval = args.log_interval, "iteration"
        common.extend_reports(trainer, ["epoch", "iteration", "elapsed_time", "lr", "main/loss", "main/loss/main",
                                        "main/loss/aux", "validation/main/miou",
                                        "validation/main/mean_class_accuracy", "validation/main/pixel_accuracy"],
                              {"loss.png": ["main/loss"], "miou.png": ["validation/main/miou"]},
                              log_interval, log_interval)
        trainer.extend(extensions.snapshot(savefun=common.save_npz), trigger=(n_iter, "iteration"))
        trainer.extend(extensions.snapshot_object(model, "snapshot_model_{.updater.iteration}.npz",
                                                  savefun=common.save_npz), trigger=(n_iter, "iteration"))
    common.resume(trainer, args.resume)
    trainer.run()


if __name__ == "__main__":
    main()
