#!/usr/bin/env python
"""Train a graph network on a MoleculeNet dataset (Chainer Chemistry's examples/molnet on kusari).

    python examples/chem/train_molnet.py --dataset delaney --method ggnn --epoch 20
    python examples/chem/predict_molnet.py --dataset delaney --method ggnn   # its test metrics

The run folder ``<out>/<dataset>_<method>_<label or all>/`` receives ``args.json``, the LogReport
``log``, ``loss.png`` and ``<metric>.png``, and ``best_predictor.npz``: the predictor (save_npz) at
its best validation metric (RMSE or MAE for regression, ROC-AUC or PRC-AUC for classification).
Offline, point KUSARI_DOWNLOAD_MIRROR at a folder holding MoleculeNet's CSV files.
"""
import argparse
import os
import random

import numpy

from kusari import optimizers, training
from kusari.chem.dataset.converters import converter_method_dict
from kusari.chem.links import StandardScaler
from kusari.chem.training.extensions.auto_print_report import AutoPrintReport
from kusari.chem.utils import save_json
from kusari.iterators import SerialIterator
from kusari.training import extensions, triggers

import _molnet


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="kusari.chem example: train on MoleculeNet")
    _molnet.add_common_arguments(parser)
    parser.add_argument("--conv-layers", "-c", type=int, default=4, help="graph convolution layers")
    parser.add_argument("--batchsize", "-b", type=int, default=32, help="molecules per minibatch")
    parser.add_argument("--out", "-o", default="result", help="output directory")
    parser.add_argument("--epoch", "-e", type=int, default=20, help="sweeps over the training set")
    parser.add_argument("--unit-num", "-u", type=int, default=16, help="units per layer")
    parser.add_argument("--num-data", type=int, default=-1,
                        help="parse only the first N molecules of the file; -1: all")
    parser.add_argument("--scale", choices=["standardize", "none"], default="standardize",
                        help="label scaling (regression only)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the weights and batch order")
    args = parser.parse_args(argv)
    for name in ("conv_layers", "batchsize", "epoch", "unit_num"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if args.num_data == 0 or args.num_data < -1:
        parser.error(f"--num-data must be -1 or >= 1, got {args.num_data}")
    if not 0 <= args.seed < 2 ** 32:
        parser.error(f"--seed must be in [0, 2**32), got {args.seed}")
    _molnet.check_label(parser, args.dataset, args.label)
    return args


def main(argv=None) -> None:
    args = parse_args(argv)
    random.seed(args.seed)
    numpy.random.seed(args.seed)
    device = _molnet.get_device(args.device)
    task_type = _molnet.task_type(args.dataset)
    print(f"Using dataset: {args.dataset} ({task_type}), method: {args.method}, device: {device}")

    train, valid, _ = _molnet.load_parts(args.dataset, args.method, args.label, args.num_data)
    print(f"# train: {len(train)}, # valid: {len(valid)}")
    scaler = None
    if args.scale == "standardize" and task_type == "regression":
        print("Applying standard scaling to the labels.")
        scaler = StandardScaler().fit(train.get_datasets()[-1])  # the labels
    elif args.scale == "standardize":
        print("Label scaling is not available for classification tasks.")
    model = _molnet.build_model(args.dataset, args.method, args.label, args.unit_num,
                                args.conv_layers, scaler, device)
    device.use()
    optimizer = optimizers.Adam()
    optimizer.setup(model)

    out = _molnet.run_dir(args.out, args.dataset, args.method, args.label)
    os.makedirs(out, exist_ok=True)
    save_json(os.path.join(out, _molnet.ARGS_FILE), vars(args))

    converter = converter_method_dict[args.method]
    train_iter = SerialIterator(train, args.batchsize)
    updater = training.StandardUpdater(train_iter, optimizer, device=device, converter=converter)
    trainer = training.Trainer(updater, (args.epoch, "epoch"), out=out)

    def eval_iter(dataset):
        return SerialIterator(dataset, args.batchsize, repeat=False, shuffle=False)

    trainer.extend(extensions.Evaluator(eval_iter(valid), model, device=device, converter=converter))
    plots = [("loss.png", ["main/loss", "validation/main/loss"])]
    plots += [(f"{name}.png", [f"main/{name}", f"validation/main/{name}"]) for name in model.metrics_fun]
    # ROC-AUC and PRC-AUC are not means over batches: they score the whole set at once, on the
    # training set ('train/main/...') and the validation set ('val/main/...')
    for metric, evaluator_class in _molnet.auc_evaluators(args.dataset).items():
        for name, dataset in (("train", train), ("val", valid)):
            trainer.extend(evaluator_class(eval_iter(dataset), model.predictor, converter=converter,
                                           device=device, eval_func=model.predictor, name=name,
                                           pos_labels=1, ignore_labels=-1, raise_value_error=False))
        plots.append((f"{metric}.png", [f"train/main/{metric}", f"val/main/{metric}"]))

    key, higher_is_better = _molnet.best_key(args.dataset)
    best_trigger = (triggers.MaxValueTrigger if higher_is_better else triggers.MinValueTrigger)(key)
    trainer.extend(extensions.snapshot_object(model.predictor, _molnet.BEST_MODEL), trigger=best_trigger)
    trainer.extend(extensions.LogReport())
    if extensions.PlotReport.available():
        for filename, keys in plots:
            trainer.extend(extensions.PlotReport(keys, "epoch", filename=filename))
    trainer.extend(AutoPrintReport())
    trainer.extend(extensions.ProgressBar())
    trainer.run()
    print(f"The predictor with the best {key} is saved in {os.path.join(out, _molnet.BEST_MODEL)}")


if __name__ == "__main__":
    main()
