"""kusari.chem's command line, with chemprop's habits: ``python -m kusari.chem train | predict | fingerprint``.

``train`` reads a CSV (SMILES and target columns), featurizes it for the chosen model family, splits
it (random or scaffold, 80/10/10), trains ``--ensemble-size`` models (seeds ``seed``,
``seed + 1``, ...), keeps each one's best validation epoch and writes them with ``args.json`` into
``--save-dir`` (with ``test_predictions.csv``); it ends with a table of the ensemble's metrics on
the three parts. Adam's step size follows chemprop's schedule (``--warmup-epochs``, ``--init-lr``,
``--max-lr``, ``--final-lr``), and ``--splits-file`` takes chemprop's split files. ``predict`` writes
the ensemble's mean prediction per row (and, with several models, its standard deviation as the
uncertainty); ``fingerprint`` writes the first model's molecule vectors (the graph network's output).

Rows whose SMILES do not parse, or whose molecule has more than ``--max-atoms`` atoms, are reported
(file, row, column, string) and skipped; their count is printed. Missing or text targets, absent
columns and empty files stop with an error naming the file, row and column. Rows are numbered as
data rows from 1 (the header is not a row).
"""
import argparse
import copy
import json
import math
import sys
from pathlib import Path

import numpy

ARGS_FILE = "args.json"
MODEL_FILE = "model_{}.npz"
#: model families of ``--model`` and the preprocessor each takes (MPNN reads GGNN's arrays)
MODELS = {"dmpnn": "chemprop", "attentivefp": "chemprop", "ggnn": "ggnn", "nfp": "nfp", "gin": "gin", "rsgcn": "rsgcn",
          "relgcn": "relgcn", "relgat": "relgat", "gnnfilm": "gnnfilm", "mpnn": "ggnn"}
DEFAULT_HIDDEN = {"dmpnn": 300, "attentivefp": 200}   # chemprop's, the paper's; others 64 (bench.chem's GGNN)


class CLIError(Exception):
    """A user error the command line reports without a traceback."""


def _progress(iterable, total: int, desc: str):
    """``iterable`` with a tqdm bar on stderr when tqdm is installed."""
    try:
        from tqdm import tqdm
    except ImportError:
        return iterable
    return tqdm(iterable, total=total, desc=desc, file=sys.stderr, leave=False)


def read_csv(path: str, command: str, columns: list):
    """The CSV at ``path`` as a DataFrame; CLIError for a missing, unreadable or empty file or absent columns."""
    import pandas
    if not Path(path).is_file():
        raise CLIError(f"{command}: {path} does not exist")
    try:
        # blank lines stay rows, so that row numbers are the file's data lines
        frame = pandas.read_csv(path, skip_blank_lines=False)
    except pandas.errors.EmptyDataError:
        raise CLIError(f"{command}: {path} is empty (no header, no rows)") from None
    except (pandas.errors.ParserError, UnicodeDecodeError) as e:
        raise CLIError(f"{command}: {path} is not a readable CSV file ({e})") from None
    if len(frame) == 0:
        raise CLIError(f"{command}: {path} has a header but no rows")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise CLIError(f"{command}: {path} has no column {missing[0]!r} (asked for {columns}; "
                       f"its columns: {list(frame.columns)})")
    return frame


def read_targets(frame, path: str, columns: list, task_type: str) -> numpy.ndarray:
    """The target columns as (rows, tasks) float32; classification's empty cells become -1 (ignored).

    CLIError names the file, row and column of a text value, a missing regression target or a
    classification label other than 0/1.
    """
    import pandas
    targets = numpy.empty((len(frame), len(columns)), dtype=numpy.float32)
    for k, column in enumerate(columns):
        values = pandas.to_numeric(frame[column], errors="coerce")
        bad = values.isna() & frame[column].notna()
        if bad.any():
            row = int(numpy.flatnonzero(bad.to_numpy())[0])
            raise CLIError(f"train: {path} row {row + 1}, column {column!r}: {frame[column].iloc[row]!r} "
                           f"is not a number ({int(bad.sum())} such rows)")
        values = values.to_numpy(dtype=numpy.float64)
        missing = numpy.isnan(values)
        if task_type == "regression" and missing.any():
            row = int(numpy.flatnonzero(missing)[0])
            raise CLIError(f"train: {path} row {row + 1}, column {column!r}: the target is missing "
                           f"({int(missing.sum())} such rows); regression needs every target")
        if task_type == "classification":
            wrong = ~missing & (values != 0) & (values != 1)
            if wrong.any():
                row = int(numpy.flatnonzero(wrong)[0])
                raise CLIError(f"train: {path} row {row + 1}, column {column!r}: label {values[row]:g} "
                               f"is not 0 or 1")
            values = numpy.where(missing, -1, values)
        targets[:, k] = values
    return targets


def featurize(frame, path: str, smiles_column: str, model: str, max_atoms: int) -> tuple:
    """Features of every row whose SMILES parses and has at most ``max_atoms`` atoms.

    Returns
    -------
    (list of tuple, numpy.ndarray, list of str)
        The features, the kept rows' indices, the kept rows' SMILES. Skipped rows are reported on
        stderr (file, row, column, string and why) with their count.
    """
    from rdkit import Chem, RDLogger
    from kusari.chem.dataset.preprocessors import ChempropPreprocessor, preprocess_method_dict
    name = MODELS[model]
    preprocessor = ChempropPreprocessor() if name == "chemprop" else preprocess_method_dict[name]()
    features, kept, smiles_kept, skipped = [], [], [], []
    RDLogger.DisableLog("rdApp.*")   # the report below names each failure once
    try:
        for row, smiles in enumerate(_progress(frame[smiles_column], len(frame), "featurizing")):
            if not isinstance(smiles, str) or not smiles.strip():
                skipped.append(f"row {row + 1}, column {smiles_column!r}: the SMILES is empty")
                continue
            mol = Chem.MolFromSmiles(smiles)
            if mol is None:
                skipped.append(f"row {row + 1}, column {smiles_column!r}: {smiles!r} does not parse")
                continue
            if mol.GetNumAtoms() > max_atoms:
                skipped.append(f"row {row + 1}, column {smiles_column!r}: {smiles!r} has "
                               f"{mol.GetNumAtoms()} atoms, more than --max-atoms {max_atoms}")
                continue
            _, mol = preprocessor.prepare_smiles_and_mol(mol)
            x = preprocessor.get_input_features(mol)
            features.append(x if isinstance(x, tuple) else (x,))
            kept.append(row)
            smiles_kept.append(smiles)
    finally:
        RDLogger.EnableLog("rdApp.*")
    if skipped:
        print(f"{path}: skipped {len(skipped)} of {len(frame)} rows:", file=sys.stderr)
        for line in skipped:
            print(f"  {path} {line}", file=sys.stderr)
    if not features:
        raise CLIError(f"{path}: no row has a usable SMILES in column {smiles_column!r}")
    return features, numpy.asarray(kept, dtype=numpy.int64), smiles_kept


def build_predictor(saved: dict, label_scaler=None):
    """The network ``saved`` (args.json) describes: a GraphConvPredictor with an MLP head."""
    from kusari.chem.models import MLP, MPNN
    from kusari.chem.models.prediction import GraphConvPredictor, set_up_predictor
    model, hidden, depth, n_tasks = saved["model"], saved["hidden_size"], saved["depth"], len(saved["target_columns"])
    if model == "mpnn":   # the paper's (Gilmer et al.), not among set_up_predictor's methods
        return GraphConvPredictor(MPNN(out_dim=hidden, hidden_channels=hidden, n_update_layers=depth,
                                       pairing="bonds"),
                                  MLP(out_dim=n_tasks, hidden_dim=hidden), label_scaler=label_scaler)
    return set_up_predictor(model, hidden, depth, n_tasks, label_scaler=label_scaler)


def _outputs(predictor, features: list, batch_size: int = 256, fingerprint: bool = False) -> numpy.ndarray:
    """The predictor's outputs (or its graph vectors) for every molecule, in test mode."""
    import kusari
    from kusari.chem.dataset.converters import concat_mols
    net = predictor.graph_conv if fingerprint else predictor
    outputs = []
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        for start in range(0, len(features), batch_size):
            outputs.append(kusari.backend.to_cpu(net(*concat_mols(features[start:start + batch_size])).array))
    return numpy.concatenate(outputs)


def metrics(y: numpy.ndarray, t: numpy.ndarray, task_type: str) -> dict:
    """RMSE and MAE over all targets (regression), or the mean ROC-AUC over tasks with both classes."""
    if task_type == "regression":
        return {"RMSE": float(numpy.sqrt(numpy.mean((y - t) ** 2))), "MAE": float(numpy.mean(numpy.abs(y - t)))}
    import sklearn.metrics
    aucs = [sklearn.metrics.roc_auc_score(t[t[:, k] != -1, k], y[t[:, k] != -1, k])
            for k in range(t.shape[1]) if len(numpy.unique(t[t[:, k] != -1, k])) == 2]
    return {"ROC-AUC": float(numpy.mean(aucs)) if aucs else math.nan}


def noam_lr(step: int, warmup_steps: int, cooldown_steps: int, init_lr: float, max_lr: float,
            final_lr: float) -> float:
    """chemprop's learning rate at update ``step`` (from 0): linear from init_lr to max_lr over the
    warm-up steps, then exponential down to final_lr over the cool-down steps, then final_lr."""
    if step < warmup_steps:
        return init_lr + step * (max_lr - init_lr) / warmup_steps
    if step < warmup_steps + cooldown_steps:
        return max_lr * (final_lr / max_lr) ** ((step - warmup_steps) / cooldown_steps)
    return final_lr


def _read_splits_file(args, kept: numpy.ndarray) -> tuple:
    """The first split of a chemprop ``--splits-file`` (JSON ``[{"train": rows, "val": rows, "test":
    rows}]``, rows of the CSV file from 0), as indices into the kept molecules."""
    try:
        with open(args.splits_file) as f:
            split = json.load(f)[0]
        rows = [numpy.asarray(split[key], dtype=numpy.int64) for key in ("train", "val", "test")]
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        raise CLIError(f"train: --splits-file {args.splits_file} is not a chemprop splits file "
                       f"([{{'train': [...], 'val': [...], 'test': [...]}}]): {e}") from None
    position = {int(row): k for k, row in enumerate(kept)}
    unknown = [int(r) for part in rows for r in part if int(r) not in position]
    if unknown:
        raise CLIError(f"train: --splits-file {args.splits_file} names rows {unknown[:5]} that are not "
                       f"usable rows of {args.data_path} (rows from 0; skipped or beyond the file)")
    return tuple(numpy.asarray([position[int(r)] for r in part], dtype=numpy.int64) for part in rows)


def _split(args, features, smiles, kept) -> tuple:
    from kusari.chem.dataset.splitters import RandomSplitter, ScaffoldSplitter
    if args.splits_file:
        return _read_splits_file(args, kept)
    fractions = dict(frac_train=args.split_sizes[0], frac_valid=args.split_sizes[1],
                     frac_test=args.split_sizes[2])
    index = numpy.arange(len(features))
    if args.split == "random":
        return RandomSplitter().train_valid_test_split(index, seed=args.seed, **fractions)
    return ScaffoldSplitter().train_valid_test_split(index, smiles_list=smiles, **fractions)


def _train_one(args, saved, features, targets, parts, seed: int, member: int):
    """One model of the ensemble: its predictor at the best validation epoch, and that epoch (from 1)."""
    import kusari.functions as F
    from kusari import optimizers
    from kusari.chem.dataset.converters import concat_mols
    from kusari.chem.links import StandardScaler
    train, valid, _ = parts
    numpy.random.seed(seed)
    scaler = None
    if saved["task_type"] == "regression":
        scaler = StandardScaler()
        scaler.fit(targets[train])
    predictor = build_predictor(saved, scaler)
    optimizer = optimizers.Adam(alpha=args.init_lr)
    optimizer.setup(predictor)
    steps_per_epoch = math.ceil(len(train) / args.batch_size)
    warmup = args.warmup_epochs * steps_per_epoch
    cooldown = max(args.epochs - args.warmup_epochs, 0) * steps_per_epoch
    step = 0
    lossfun = F.mean_squared_error if saved["task_type"] == "regression" else F.sigmoid_cross_entropy
    valid_features = [features[i] for i in valid]
    best, best_score, best_epoch = None, math.inf, 0
    epochs = _progress(range(args.epochs), args.epochs, f"model {member}")
    for epoch in epochs:
        order = numpy.random.permutation(train)
        for start in range(0, len(order), args.batch_size):
            rows = order[start:start + args.batch_size]
            inputs = concat_mols([features[i] for i in rows])
            t = targets[rows] if saved["task_type"] == "regression" else targets[rows].astype(numpy.int32)
            y = predictor(*inputs)
            if scaler is not None:   # the loss on standardized targets, as chemprop's
                y, t = scaler.transform(y), scaler.transform(t)
            loss = lossfun(y, t)
            predictor.cleargrads()
            loss.backward()
            optimizer.alpha = noam_lr(step, warmup, cooldown, args.init_lr, args.max_lr, args.final_lr)
            optimizer.update()
            step += 1
        score = metrics(_outputs(predictor, valid_features), targets[valid], saved["task_type"])
        value = next(iter(score.values()))
        value = value if saved["task_type"] == "regression" else -value
        if hasattr(epochs, "set_postfix"):
            epochs.set_postfix({"train loss": float(loss.array), **{f"val {k}": v for k, v in score.items()}})
        if best is None or value < best_score:   # a NaN score (one class only) keeps the first
            best, best_score, best_epoch = copy.deepcopy(predictor), value, epoch + 1
    return best, best_epoch


def _write_test_predictions(save_dir: Path, saved: dict, rows, smiles: list, y: numpy.ndarray) -> None:
    """``test_predictions.csv``: the CSV row (from 0), SMILES and the ensemble's mean per target."""
    import pandas
    if saved["task_type"] == "classification":
        y = 1 / (1 + numpy.exp(-y))
    frame = pandas.DataFrame({"row": rows, saved["smiles_columns"]: smiles})
    for k, target in enumerate(saved["target_columns"]):
        frame[target] = y[:, k]
    frame.to_csv(save_dir / "test_predictions.csv", index=False)


def train(args) -> int:
    """``train``: fit the ensemble, save it, print the metrics table."""
    from kusari import serializers
    columns = [args.smiles_columns] + args.target_columns
    frame = read_csv(args.data_path, "train", columns)
    targets = read_targets(frame, args.data_path, args.target_columns, args.task_type)
    features, kept, smiles = featurize(frame, args.data_path, args.smiles_columns, args.model, args.max_atoms)
    targets = targets[kept]
    if len(features) < 3:
        raise CLIError(f"train: {args.data_path} has {len(features)} usable rows; a train/validation/test "
                       f"split needs at least 3")
    parts = _split(args, features, smiles, kept)
    if len(parts[0]) == 0 or len(parts[1]) == 0:
        raise CLIError(f"train: the {'training' if len(parts[0]) == 0 else 'validation'} part of "
                       f"{len(features)} usable rows of {args.data_path} is empty (--split-sizes "
                       f"{args.split_sizes})")
    save_dir = Path(args.save_dir)
    save_dir.mkdir(parents=True, exist_ok=True)
    saved = {"model": args.model, "hidden_size": args.hidden_size or DEFAULT_HIDDEN.get(args.model, 64),
             "depth": args.depth, "task_type": args.task_type, "smiles_columns": args.smiles_columns,
             "target_columns": args.target_columns, "ensemble_size": args.ensemble_size,
             "max_atoms": args.max_atoms}
    print(f"train: {len(features)} molecules from {args.data_path}; {args.split} split "
          f"{len(parts[0])}/{len(parts[1])}/{len(parts[2])}; {args.model}, hidden {saved['hidden_size']}, "
          f"depth {args.depth}; {args.ensemble_size} model(s), {args.epochs} epochs")
    predictors, best_epochs = [], []
    for member in range(args.ensemble_size):
        predictor, best_epoch = _train_one(args, saved, features, targets, parts, args.seed + member, member)
        best_epochs.append(best_epoch)
        serializers.save_npz(str(save_dir / MODEL_FILE.format(member)), predictor)
        predictors.append(predictor)
    with open(save_dir / ARGS_FILE, "w") as f:
        json.dump(saved, f, indent=2)
    table = {}
    for name, rows in zip(("train", "validation", "test"), parts):
        if len(rows):
            y = numpy.mean([_outputs(p, [features[i] for i in rows]) for p in predictors], axis=0)
            table[name] = (len(rows), metrics(y, targets[rows], args.task_type))
            if name == "test":   # as chemprop's test_predictions.csv, with each row's place in the file
                _write_test_predictions(save_dir, saved, kept[rows], [smiles[i] for i in rows], y)
    names = list(next(iter(table.values()))[1])
    print("\n| part | molecules | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for part, (n, values) in table.items():
        print(f"| {part} | {n} | " + " | ".join(f"{values[k]:.4f}" for k in names) + " |")
    with open(save_dir / "metrics.json", "w") as f:
        json.dump({**{part: values for part, (_, values) in table.items()}, "best_epochs": best_epochs}, f,
                  indent=2)
    print(f"\nsaved {args.ensemble_size} model(s) and {ARGS_FILE} in {save_dir}")
    return 0


def _load(model_path: str, command: str) -> tuple:
    """args.json and the ensemble's predictors from a ``train --save-dir`` folder."""
    from kusari import serializers
    from kusari.chem.links import StandardScaler
    path = Path(model_path) / ARGS_FILE
    if not path.is_file():
        raise CLIError(f"{command}: {path} not found; --model-path must be a train --save-dir folder")
    with open(path) as f:
        saved = json.load(f)
    predictors = []
    for member in range(saved["ensemble_size"]):
        file = Path(model_path) / MODEL_FILE.format(member)
        if not file.is_file():
            raise CLIError(f"{command}: {file} not found (args.json names {saved['ensemble_size']} models)")
        scaler = StandardScaler() if saved["task_type"] == "regression" else None
        predictor = build_predictor(saved, scaler)
        serializers.load_npz(str(file), predictor)
        predictors.append(predictor)
    return saved, predictors


def predict(args) -> int:
    """``predict``: the ensemble's mean (and standard deviation) per row, written as CSV."""
    saved, predictors = _load(args.model_path, "predict")
    column = args.smiles_columns or saved["smiles_columns"]
    frame = read_csv(args.test_path, "predict", [column])
    features, kept, _ = featurize(frame, args.test_path, column, saved["model"], saved["max_atoms"])
    outputs = numpy.stack([_outputs(p, features) for p in predictors])
    if saved["task_type"] == "classification":
        outputs = 1 / (1 + numpy.exp(-outputs))   # probabilities
    out = frame.copy()
    for k, target in enumerate(saved["target_columns"]):
        values = numpy.full(len(frame), numpy.nan)
        values[kept] = outputs[:, :, k].mean(axis=0)
        out[target] = values
        if len(predictors) > 1:
            spread = numpy.full(len(frame), numpy.nan)
            spread[kept] = outputs[:, :, k].std(axis=0)
            out[f"{target}_ensemble_std"] = spread
    out.to_csv(args.preds_path, index=False)
    print(f"predict: {len(kept)} of {len(frame)} rows predicted by {len(predictors)} model(s) -> {args.preds_path}")
    return 0


def fingerprint(args) -> int:
    """``fingerprint``: the first model's molecule vectors, one row per input row (NaN where skipped)."""
    saved, predictors = _load(args.model_path, "fingerprint")
    column = args.smiles_columns or saved["smiles_columns"]
    frame = read_csv(args.test_path, "fingerprint", [column])
    features, kept, _ = featurize(frame, args.test_path, column, saved["model"], saved["max_atoms"])
    vectors = _outputs(predictors[0], features, fingerprint=True)
    result = numpy.full((len(frame), vectors.shape[1]), numpy.nan, dtype=numpy.float32)
    result[kept] = vectors
    if args.output.endswith(".npz"):
        numpy.savez_compressed(args.output, fingerprints=result, rows=kept)
    else:
        import pandas
        pandas.DataFrame(result, columns=[f"fp_{k}" for k in range(result.shape[1])]).to_csv(args.output, index=False)
    print(f"fingerprint: {len(kept)} of {len(frame)} rows, {vectors.shape[1]} values each -> {args.output}")
    return 0


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m kusari.chem``."""
    p = argparse.ArgumentParser(prog="python -m kusari.chem", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train an ensemble on a CSV of SMILES and targets")
    t.add_argument("--data-path", required=True)
    t.add_argument("--task-type", choices=("regression", "classification"), default="regression")
    t.add_argument("--smiles-columns", default="smiles")
    t.add_argument("--target-columns", nargs="+", required=True)
    t.add_argument("--save-dir", required=True)
    t.add_argument("--model", choices=sorted(MODELS), default="dmpnn")
    t.add_argument("--split", choices=("random", "scaffold"), default="random")
    t.add_argument("--split-sizes", type=float, nargs=3, default=[0.8, 0.1, 0.1])
    t.add_argument("--epochs", type=int, default=50)
    t.add_argument("--batch-size", type=int, default=64)
    t.add_argument("--splits-file", default=None,
                   help="chemprop's JSON of row indices [{'train': [...], 'val': [...], 'test': [...]}]")
    # chemprop's Noam-like schedule of Adam's step size, per update
    t.add_argument("--warmup-epochs", type=int, default=2)
    t.add_argument("--init-lr", type=float, default=1e-4)
    t.add_argument("--max-lr", type=float, default=1e-3)
    t.add_argument("--final-lr", type=float, default=1e-4)
    t.add_argument("--hidden-size", type=int, default=None, help="dmpnn: 300, attentivefp: 200, others: 64")
    t.add_argument("--depth", type=int, default=3, help="message-passing steps")
    t.add_argument("--ensemble-size", type=int, default=1)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--max-atoms", type=int, default=200, help="larger molecules are reported and skipped")
    for name, help_text in (("predict", "predict a CSV's SMILES with a trained ensemble"),
                            ("fingerprint", "write the molecule vectors of a CSV's SMILES")):
        s = sub.add_parser(name, help=help_text)
        s.add_argument("--test-path", required=True)
        s.add_argument("--model-path", required=True, help="a train --save-dir folder")
        s.add_argument("--smiles-columns", default=None, help="default: the training's")
        if name == "predict":
            s.add_argument("--preds-path", required=True)
        else:
            s.add_argument("--output", required=True, help=".npz or .csv")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if args.command == "train":
        checks = [(args.epochs >= 1, f"--epochs must be >= 1, got {args.epochs}"),
                  (args.ensemble_size >= 1, f"--ensemble-size must be >= 1, got {args.ensemble_size}"),
                  (args.max_atoms >= 1, f"--max-atoms must be >= 1, got {args.max_atoms}"),
                  (abs(sum(args.split_sizes) - 1) < 1e-6, f"--split-sizes must sum to 1, got {args.split_sizes}")]
        for ok, message in checks:
            if not ok:
                print(f"train: {message}", file=sys.stderr)
                return 2
    try:
        return {"train": train, "predict": predict, "fingerprint": fingerprint}[args.command](args)
    except CLIError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
