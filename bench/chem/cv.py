"""Command line: ``python -m bench.chem.cv [--folds K] [--seeds-per-fold N] [--epochs E] [SETTING ...]``.

Chooses among settings of bench.chem's GGNN without its test rows: K-fold cross-validation on the
benchmark split's train and validation rows together. Each fold holds out a K-th of them (the folds
drawn once, from ``RandomState(12345)``), trains on the rest with :meth:`MolNetRecipe.fit` (seed
``fold + 100 * repeat``) and scores the best validation epoch's RMSE on the held-out part; the test
rows stay in the split's test part and are never scored. The split's own validation part (113
molecules) is too small to tell settings 0.03 apart: its RMSE varies by about 0.05 between seeds.

Prints, per setting, the mean RMSE over the K x N runs, and its paired difference from the first
setting's (mean, standard error, runs won), for the best epoch and for the mean of the last 10.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import statistics
import sys
import tempfile

from bench.chem import esol

#: Candidate settings: overrides of :data:`bench.chem.esol.GGNN`. ``identity`` is Chainer Chemistry's
#: default readout activation.
SETTINGS = {"identity": {"activation": None}, "relu": {"activation": "relu"},
            "tanh": {"activation": "tanh"}}
FOLD_SEED = 12345


def benchmark_split() -> tuple[list[int], list[int], list[int]]:
    """bench.chem's (train, valid, test) rows of ESOL."""
    import pandas

    from bench.chem.__main__ import data_files, write_split
    with tempfile.TemporaryDirectory() as scratch:
        split = write_split(len(pandas.read_csv(data_files()["esol"])), os.path.join(scratch, "splits.json"))
    return split["train"], split["val"], split["test"]


def folds(rows: list[int], k: int) -> list[list[int]]:
    """``rows`` shuffled by ``RandomState(FOLD_SEED)`` and cut into ``k`` near-equal folds."""
    import numpy
    permuted = numpy.random.RandomState(FOLD_SEED).permutation(sorted(rows))
    return [sorted(fold.tolist()) for fold in numpy.array_split(permuted, k)]


def run_fold(settings: dict, split: tuple[list[int], list[int], list[int]], seed: int, epochs: int) -> dict:
    """Train on ``split[0]``, validate on ``split[1]``; the best and the last-10-epoch mean validation RMSE."""
    import numpy
    from kusari.chem.dataset.preprocessors import GGNNPreprocessor
    from kusari.chem.datasets.molnet import get_molnet_dataset

    from reproductions.chem._molnet import MolNetRecipe

    numpy.random.seed(seed)
    random.seed(seed)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        train, valid, _ = get_molnet_dataset(esol.DATASET, GGNNPreprocessor(),
                                             split=esol._given_split(split))["dataset"]
        _, best_epoch, history = MolNetRecipe(esol.DATASET, "ggnn", **{**esol.GGNN, **settings}).fit(
            train, valid, epochs, seed)
    values = [record["valid_rmse"] for record in history]
    return {"best": min(values), "best_epoch": best_epoch, "last10": statistics.fmean(values[-10:])}


def _paired(values: list[float], reference: list[float]) -> str:
    differences = [v - r for v, r in zip(values, reference)]
    error = statistics.stdev(differences) / len(differences) ** 0.5 if len(differences) > 1 else float("nan")
    wins = sum(d < 0 for d in differences)
    return f"{statistics.fmean(differences):+.4f} ± {error:.4f} ({wins}/{len(differences)} lower)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chem.cv", description=__doc__.split("\n\n")[1])
    parser.add_argument("settings", nargs="*", default=list(SETTINGS), help=f"of {', '.join(SETTINGS)} "
                        "(default: all); differences are against the first")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seeds-per-fold", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=50)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    unknown = [name for name in args.settings if name not in SETTINGS]
    if unknown or args.folds < 2 or args.seeds_per_fold < 1 or args.epochs < 10:
        parser.error(f"settings must be of {list(SETTINGS)} (got unknown {unknown}); --folds >= 2, "
                     "--seeds-per-fold >= 1, --epochs >= 10")
    train, valid, test = benchmark_split()
    pool = train + valid
    results = {}
    for name in args.settings:
        runs = []
        for repeat in range(args.seeds_per_fold):
            for k, held_out in enumerate(folds(pool, args.folds)):
                rest = sorted(set(pool) - set(held_out))
                run = run_fold(SETTINGS[name], (rest, held_out, test), k + 100 * repeat, args.epochs)
                runs.append(run)
                print(f"{name} fold {k} seed {k + 100 * repeat}: best {run['best']:.4f} "
                      f"(epoch {run['best_epoch']}), last 10 {run['last10']:.4f}", file=sys.stderr, flush=True)
        results[name] = runs
    first = results[args.settings[0]]
    print(f"| setting | best-epoch RMSE | vs {args.settings[0]} | last-10 RMSE | vs {args.settings[0]} |")
    print("|---|---|---|---|---|")
    for name, runs in results.items():
        best, last = [r["best"] for r in runs], [r["last10"] for r in runs]
        reference = runs is first   # no difference column against itself
        print(f"| {name} | {statistics.fmean(best):.4f} | "
              f"{'' if reference else _paired(best, [r['best'] for r in first])} | {statistics.fmean(last):.4f} | "
              f"{'' if reference else _paired(last, [r['last10'] for r in first])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
