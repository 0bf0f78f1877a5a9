#!/usr/bin/env python
"""Score the best predictor of a train_molnet.py run on its dataset's test part.

    python examples/chem/train_molnet.py --dataset delaney --method ggnn --epoch 20
    python examples/chem/predict_molnet.py --dataset delaney --method ggnn

Reads ``<in-dir>/<dataset>_<method>_<label or all>/``: ``args.json`` rebuilds the network and
``best_predictor.npz`` fills it (strict load_npz). Writes, next to them, ``eval_result.json`` (the
test loss and metrics) and, for classification, ``rocauc_result.json`` or ``prcauc_result.json``.
"""
import argparse
import os

from kusari import serializers
from kusari.chem.dataset.converters import converter_method_dict
from kusari.chem.links import StandardScaler
from kusari.chem.utils import load_json, save_json
from kusari.iterators import SerialIterator
from kusari.training.extensions import Evaluator

import _molnet

# the training arguments prediction reuses: the network's size, the label scaling, the rows parsed
_RUN_ARGUMENTS = ("unit_num", "conv_layers", "scale", "num_data")


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="kusari.chem example: test a MoleculeNet model")
    _molnet.add_common_arguments(parser)
    parser.add_argument("--in-dir", "-i", default="result",
                        help="the --out of the training run")
    parser.add_argument("--batchsize", "-b", type=int, default=16, help="molecules per minibatch")
    args = parser.parse_args(argv)
    if args.batchsize < 1:
        parser.error(f"--batchsize must be >= 1, got {args.batchsize}")
    _molnet.check_label(parser, args.dataset, args.label)
    return args


def load_run_arguments(run: str) -> dict:
    """The training arguments saved in ``run``; FileNotFoundError names what to train first."""
    path = os.path.join(run, _molnet.ARGS_FILE)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"predict_molnet: {path} not found; train this dataset, method and "
                                "label first with train_molnet.py (its --out is --in-dir here)")
    saved = load_json(path)
    missing = [name for name in _RUN_ARGUMENTS if name not in saved]
    if missing:
        raise ValueError(f"predict_molnet: {path} lacks the training arguments {missing}")
    return saved


def load_best_model(run: str, dataset: str, method: str, label: str, device):
    """The Regressor or Classifier of a training run, its predictor loaded from the run's best file.

    Parameters
    ----------
    run : str
        The run folder (``<out>/<dataset>_<method>_<label or all>``).
    dataset, method, label : str
        As given to train_molnet.py.
    device : kusari.backend.Device

    Returns
    -------
    tuple
        The model, and the training arguments (dict) it was rebuilt from.
    """
    saved = load_run_arguments(run)
    # an unfitted scaler, so that the predictor has the trained one's links: load_npz fills it
    scaled = saved["scale"] == "standardize" and _molnet.task_type(dataset) == "regression"
    model = _molnet.build_model(dataset, method, label, saved["unit_num"], saved["conv_layers"],
                                StandardScaler() if scaled else None, device)
    model_path = os.path.join(run, _molnet.BEST_MODEL)
    print(f"Loading the predictor from {model_path}...")
    serializers.load_npz(model_path, model.predictor)
    return model, saved


def main(argv=None) -> None:
    args = parse_args(argv)
    device = _molnet.get_device(args.device)
    run = _molnet.run_dir(args.in_dir, args.dataset, args.method, args.label)
    model, saved = load_best_model(run, args.dataset, args.method, args.label, device)
    device.use()
    _, _, test = _molnet.load_parts(args.dataset, args.method, args.label, saved["num_data"])

    print(f"Evaluating on the {len(test)} test molecules...")
    converter = converter_method_dict[args.method]

    def test_iter():
        return SerialIterator(test, args.batchsize, repeat=False, shuffle=False)

    eval_result = {key: float(value) for key, value in
                   Evaluator(test_iter(), model, converter=converter, device=device)().items()}
    print("Evaluation result:", eval_result)
    save_json(os.path.join(run, "eval_result.json"), eval_result)
    for metric, evaluator_class in _molnet.auc_evaluators(args.dataset).items():
        evaluator = evaluator_class(test_iter(), model.predictor, converter=converter, device=device,
                                    eval_func=model.predictor, name="test", pos_labels=1,
                                    ignore_labels=-1, raise_value_error=False)
        auc_result = {key: float(value) for key, value in evaluator().items()}
        print(f"{metric} result:", auc_result)
        save_json(os.path.join(run, f"{metric.replace('_', '')}_result.json"), auc_result)


if __name__ == "__main__":
    main()
