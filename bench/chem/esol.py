"""ESOL regression: kusari.chem's GGNN in Chainer Chemistry's pipeline against chemprop's default D-MPNN.

Each ``train_<framework>(data, splits, seed, epochs, work_dir)`` trains a new model on the split's train part
(``splits``: a JSON file in chemprop's ``--splits-file`` format, ``[{"train": [...], "val": [...],
"test": [...]}]``, rows of the CSV file ``data``), keeps the model of its best validation epoch, and returns
its test predictions in label units, in the order of the split's test rows, with what the caller checks
them by. The caller scores both sides with the same code against the CSV file's own labels. Frameworks are
imported inside those functions only, so a worker loads nothing of the other side.
"""
from __future__ import annotations

import glob
import json
import os
import re
import sys
import time
from pathlib import Path

DATASET = "delaney"   # ESOL's key in molnet_default_config
SMILES_COLUMN = "smiles"
LABEL_COLUMN = "measured log solubility in mols per litre"
#: the issue's GGNN: Chainer Chemistry's examples/molnet pipeline at these settings. Adam's alpha was
#: chosen among 1, 1.5, 2, 3 and 4 (x 1e-3) by the mean validation RMSE of seeds 0-2 on the benchmark's
#: split (0.607, 0.559, 0.526, 0.566, 0.585). GGNN's readout activation (ReLU instead of the identity)
#: was chosen by 5-fold cross-validation on the split's train and validation rows (:mod:`bench.chem.cv`):
#: the test part chose neither
GGNN = {"n_unit": 64, "conv_layers": 3, "batch_size": 32, "lr": 2e-3, "activation": "relu"}
SETTINGS = {
    "kusari": "GGNNPreprocessor; set_up_predictor('ggnn', n_unit=64, conv_layers=3, conv_kwargs={'activation': "
              "relu}) (GGNN with a ReLU readout, chosen by 5-fold cross-validation on the train and validation "
              "rows, + MLP head) with a StandardScaler fitted on the training labels; MSE loss; Adam (alpha "
              "2e-3, chosen on the validation part among 1e-3 to 4e-3), batch 32; the "
              "predictor of the best validation RMSE epoch is kept",
    "chainer-chemistry": "the kusari column's code, run on Chainer 7.8.1 and Chainer Chemistry 0.7.1 "
                         "(`bench.chem.chainer_as_kusari`)",
    "kusari-dmpnn": "`python -m kusari.chem train` defaults, which are chemprop's: ChempropPreprocessor (chemprop's "
                    "V2 atom and bond features); DMPNN (hidden 300, depth 3, norm-100 aggregation) + one FFN layer "
                    "of 300; batch 64; chemprop's schedule 1e-4 -> 1e-3 -> 1e-4 with 2 warm-up epochs; "
                    "standardized targets; the best validation-RMSE epoch predicts the test part; with "
                    "`--epochs E --splits-file --seed S`",
    "chemprop": "`chemprop train` defaults (D-MPNN: bond messages, hidden 300, depth 3, mean-norm aggregation, "
                "one FFN layer of 300; batch 64; Noam schedule 1e-4 -> 1e-3 -> 1e-4 with 2 warm-up epochs; "
                "target standardization; the best validation-loss checkpoint is kept and predicts the test "
                "part) with `--epochs E --splits-file --pytorch-seed S --data-seed S --accelerator cpu`",
}


def read_split(splits: str) -> tuple[list[int], list[int], list[int]]:
    """The (train, valid, test) rows of the first split of a chemprop ``--splits-file``."""
    with open(splits) as f:
        split = json.load(f)[0]
    return split["train"], split["val"], split["test"]


def _given_split(rows: tuple[list[int], list[int], list[int]]):
    """A kusari.chem splitter that returns ``rows`` for a dataset of exactly the rows they index."""
    import numpy
    from kusari.chem.dataset.splitters import BaseSplitter

    class GivenSplit(BaseSplitter):
        def _split(self, dataset, frac_train=0.8, frac_valid=0.1, frac_test=0.1, **kwargs):
            size = sum(len(part) for part in rows)
            if len(dataset) != size:
                raise ValueError(f"bench.chem: the parsed dataset has {len(dataset)} molecules but the split "
                                 f"covers {size} rows (did the parser skip a molecule?)")
            return tuple(numpy.asarray(part, dtype=numpy.intp) for part in rows)
    return GivenSplit()


def train_kusari(data: str, splits: str, seed: int, epochs: int, work_dir: str) -> dict:
    """kusari.chem's GGNN through ``get_molnet_dataset`` and :meth:`MolNetRecipe.fit`.

    ``data`` is the file that ``get_molnet_dataset`` itself resolves (its download cache); it is not
    read here. Returns ``predictions`` and the ``labels`` the dataset holds for the test rows, the
    ``best_epoch``, and the CPU seconds of featurization and of each epoch's updates.
    """
    import random

    import numpy
    from kusari.chem.dataset.preprocessors import GGNNPreprocessor
    from kusari.chem.datasets.molnet import get_molnet_dataset

    from reproductions.chem._molnet import MolNetRecipe, predict

    numpy.random.seed(seed)
    random.seed(seed)
    started = time.process_time()
    train, valid, test = get_molnet_dataset(DATASET, GGNNPreprocessor(),
                                            split=_given_split(read_split(splits)))["dataset"]
    featurize_cpu_s = time.process_time() - started
    best, best_epoch, history = MolNetRecipe(DATASET, "ggnn", **GGNN).fit(train, valid, epochs, seed)
    y, t = predict(best, test)
    return {"predictions": y[:, 0].tolist(), "labels": t[:, 0].tolist(), "best_epoch": best_epoch,
            "featurize_cpu_s": featurize_cpu_s, "epoch_cpu_s": [record["train_cpu_s"] for record in history]}


def train_chainer_chemistry(data: str, splits: str, seed: int, epochs: int, work_dir: str) -> dict:
    """Chainer Chemistry 0.7.1 itself, running :func:`train_kusari`'s code with kusari's names bound to the peer's.

    Chainer Chemistry reads ``data`` from its own dataset root, which has kusari's layout
    (``<root>/pfnet/chainer/molnet/<file>``), so the root is set to the one ``data`` lies in.
    """
    import chainer

    from bench.chem import chainer_as_kusari

    chainer.dataset.set_dataset_root(str(Path(data).parents[3]))
    chainer_as_kusari.install()
    return train_kusari(data, splits, seed, epochs, work_dir)


def train_kusari_dmpnn(data: str, splits: str, seed: int, epochs: int, work_dir: str) -> dict:
    """kusari.chem's D-MPNN through its chemprop-like command (``kusari.chem.cli``), in this process.

    Returns ``predictions`` and the ``smiles`` of the test rows, in the split's order, and the ``best_epoch``.
    """
    import pandas
    from kusari.chem import cli

    out = os.path.join(work_dir, "kusari_dmpnn")
    code = cli.main(["train", "--data-path", data, "--smiles-columns", SMILES_COLUMN, "--target-columns",
                     LABEL_COLUMN, "--task-type", "regression", "--splits-file", splits, "--epochs", str(epochs),
                     "--seed", str(seed), "--save-dir", out])
    if code != 0:
        raise RuntimeError(f"bench.chem: python -m kusari.chem train exited with code {code}")
    frame = pandas.read_csv(os.path.join(out, "test_predictions.csv"))
    with open(os.path.join(out, "metrics.json")) as f:
        best_epoch, = json.load(f)["best_epochs"]
    return {"predictions": frame[LABEL_COLUMN].tolist(), "smiles": frame[SMILES_COLUMN].tolist(),
            "best_epoch": best_epoch}


def train_chemprop(data: str, splits: str, seed: int, epochs: int, work_dir: str) -> dict:
    """``chemprop train`` in this process (its command's own entry point), then its test predictions.

    Returns ``predictions`` and the ``smiles`` of the rows chemprop predicted, and the ``best_epoch``
    (1-based) of the checkpoint it kept.
    """
    import pandas
    from chemprop.cli.main import main

    out = os.path.join(work_dir, "chemprop")
    sys.argv = ["chemprop", "train", "--data-path", data, "--smiles-columns", SMILES_COLUMN,
                "--target-columns", LABEL_COLUMN, "--task-type", "regression", "--splits-file", splits,
                "--epochs", str(epochs), "--pytorch-seed", str(seed), "--data-seed", str(seed),
                "--accelerator", "cpu", "--devices", "1", "--num-workers", "0", "--output-dir", out]
    main()
    frame = pandas.read_csv(os.path.join(out, "model_0", "test_predictions.csv"))
    best, = glob.glob(os.path.join(out, "model_0", "checkpoints", "best-*.ckpt"))
    return {"predictions": frame[LABEL_COLUMN].tolist(), "smiles": frame[SMILES_COLUMN].tolist(),
            "best_epoch": int(re.search(r"best-epoch=(\d+)-", os.path.basename(best)).group(1)) + 1}
