"""What train_molnet.py and predict_molnet.py share: their common arguments, the run folder, the
MoleculeNet split and the model with its metrics."""
import argparse
import os

import numpy

import kusari
from kusari.chem.dataset.preprocessors import preprocess_method_dict
from kusari.chem.datasets.molnet import get_molnet_dataset, molnet_default_config
from kusari.chem.models.prediction import Classifier, Regressor, set_up_predictor

# Chainer Chemistry's examples/molnet methods
METHODS = ["nfp", "ggnn", "schnet", "weavenet", "rsgcn", "relgcn", "relgat", "gin", "gnnfilm",
           "megnet", "nfp_gwm", "ggnn_gwm", "rsgcn_gwm", "gin_gwm"]
# molnet_default_config entries these scripts cannot train: 'chembl' mixes regression and
# classification tasks and has no metrics, 'pdbbind_smiles' needs a subset and a time split,
# 'pdbbind_grid' is a joblib pickle kusari does not load
_UNTRAINABLE = ("chembl", "pdbbind_smiles", "pdbbind_grid")
DATASETS = [name for name in molnet_default_config if name not in _UNTRAINABLE]
# metrics whose larger values are better; every other metric is an error to minimize
_HIGHER_IS_BETTER = ("R2", "roc_auc", "prc_auc")
ARGS_FILE = "args.json"
BEST_MODEL = "best_predictor.npz"  # the predictor (save_npz) at its best validation metric


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --dataset, --method, --label and --device (Chainer Chemistry's defaults)."""
    parser.add_argument("--dataset", "-d", choices=DATASETS, default="bbbp",
                        help="MoleculeNet dataset (a key of molnet_default_config)")
    parser.add_argument("--method", "-m", choices=METHODS, default="nfp", help="graph network")
    parser.add_argument("--label", "-l", default="",
                        help="one task of the dataset to predict; empty: all its tasks at once")
    parser.add_argument("--device", default="-1",
                        help="device: -1 or @numpy for the CPU, 0 or @cupy:0 for the first GPU")


def check_label(parser: argparse.ArgumentParser, dataset: str, label: str) -> None:
    """Exit through ``parser.error`` when ``label`` is not one of ``dataset``'s tasks."""
    tasks = molnet_default_config[dataset]["tasks"]
    if label and label not in tasks:
        parser.error(f"--label {label!r} is not a task of --dataset {dataset}; its tasks are {tasks}")


def get_device(spec: str) -> kusari.backend.Device:
    """The device of a --device value: an integer ('-1', '0') or a specifier ('@numpy', '@cupy:0')."""
    return kusari.get_device(int(spec) if spec.lstrip("-").isdigit() else spec)


def run_dir(out: str, dataset: str, method: str, label: str) -> str:
    """The folder of one run, ``<out>/<dataset>_<method>_<label or 'all'>``, as Chainer Chemistry names it."""
    return os.path.join(out, f"{dataset}_{method}_{label or 'all'}")


def task_type(dataset: str) -> str:
    """'regression' or 'classification'."""
    return molnet_default_config[dataset]["task_type"]


def load_parts(dataset: str, method: str, label: str, num_data: int) -> tuple:
    """The (train, valid, test) NumpyTupleDatasets of ``dataset``, featurized for ``method``.

    Parameters
    ----------
    dataset, method, label : str
        As the scripts' arguments; an empty ``label`` takes every task.
    num_data : int
        Parse only the first ``num_data`` rows of the file; -1 parses all.

    Returns
    -------
    tuple of NumpyTupleDataset
        Features, then labels of shape (N_part, n_tasks): float32 for regression, int32 (-1:
        missing) for classification. The split is the dataset's recommended one with the loader's
        fixed seed, so training and prediction see the same parts.
    """
    target_index = numpy.arange(num_data) if num_data >= 0 else None
    result = get_molnet_dataset(dataset, preprocess_method_dict[method](), labels=label or None,
                                target_index=target_index)
    return result["dataset"]


def build_model(dataset: str, method: str, label: str, unit_num: int, conv_layers: int,
                scaler, device):
    """A Regressor or Classifier over ``set_up_predictor``, with the dataset's loss and metric functions.

    Parameters
    ----------
    dataset, method, label : str
    unit_num, conv_layers : int
        Width and depth of the graph network (``set_up_predictor``'s n_unit and conv_layers).
    scaler : kusari.chem.links.StandardScaler or None
        Label scaler of the predictor (regression only).
    device : kusari.backend.Device

    Returns
    -------
    Regressor or Classifier
        Its ``predictor`` maps the converter's inputs to (minibatch, n_tasks) predictions.
    """
    config = molnet_default_config[dataset]
    class_num = 1 if label else len(config["tasks"])
    predictor = set_up_predictor(method, unit_num, conv_layers, class_num, label_scaler=scaler)
    # the evaluator classes among the metrics need whole sets: see auc_evaluators
    metrics_fun = {name: f for name, f in config["metrics"].items() if not isinstance(f, type)}
    model_class = Regressor if config["task_type"] == "regression" else Classifier
    return model_class(predictor, lossfun=config["loss"], metrics_fun=metrics_fun, device=device)


def auc_evaluators(dataset: str) -> dict:
    """The dataset's whole-set metrics: name ('roc_auc', 'prc_auc') -> evaluator class."""
    return {name: f for name, f in molnet_default_config[dataset]["metrics"].items()
            if isinstance(f, type)}


def best_key(dataset: str) -> tuple[str, bool]:
    """The validation observation that picks the best model, and whether larger is better."""
    aucs = auc_evaluators(dataset)
    if aucs:
        name = next(iter(aucs))
        return f"val/main/{name}", True
    name = next(iter(molnet_default_config[dataset]["metrics"]))
    return f"validation/main/{name}", name in _HIGHER_IS_BETTER
