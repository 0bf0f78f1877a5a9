"""Command line: ``python -m bench.chem [--seeds N] [--epochs N] [--frameworks kusari,chemprop] [--quick]``.

One random 80/10/10 split of ESOL (kusari.chem's ``RandomSplitter``, seed 0) is drawn once and given to every
run as index lists (chemprop's ``--splits-file``); the seeds change the initial weights and the batch order
only. Each seed trains every framework once, in an order rotated per seed, each in its own process with one
thread, and featurizes all of Lipophilicity once per framework. CPU time is the child process's user + system
time (``getrusage(RUSAGE_CHILDREN)``), wall time is measured around it. Test RMSE is computed here, by the
same code for both, from each run's test predictions and the CSV file's labels. A full run (50 epochs, every
framework) writes the ``chem`` section of bench/RESULTS.md; ``--quick`` is a smoke test (3 epochs, no file).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy
import pandas

from bench import environments, machine, results_file
from bench.chem import esol, featurize
from bench.chem.worker import FRAMEWORKS, PREPARED

SECTION = "chem"
THREADS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
ENVIRONMENT = {"kusari": "kusari", "chemprop": "chemprop", "chainer-chemistry": "chainer-chemistry",
               "kusari-dmpnn": "kusari"}   # bench.environments recipes
LABEL = {"kusari": "kusari.chem GGNN", "chemprop": "chemprop D-MPNN", "chainer-chemistry": "Chainer Chemistry GGNN",
         "kusari-dmpnn": "kusari.chem D-MPNN"}
EPOCHS, QUICK_EPOCHS = 50, 3   # chemprop needs more epochs than its 2 warm-up ones
SPLIT_SEED = 0
#: GGNN's test RMSE varies by about 0.06 between seeds (chemprop's by 0.02), so three seeds leave the mean's
#: standard error (0.035) above the goal's 0.02 margin; ten bring it to 0.02
SEEDS = 10
FRACTIONS = (0.8, 0.1, 0.1)
RMSE_SLACK = 0.02   # the goals: kusari's test RMSE at most chemprop's + 0.02 ...
TIME_GOAL = 0.5     # ... in at most half chemprop's CPU time
LIPOPHILICITY = "lipo"
REPO = Path(__file__).resolve().parents[2]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench.chem", description=__doc__.split("\n\n")[1])
    parser.add_argument("--seeds", type=int, default=SEEDS, help=f"training runs per framework (default {SEEDS})")
    parser.add_argument("--epochs", type=int, help=f"training epochs (default {EPOCHS}; a smoke test: no RESULTS.md)")
    parser.add_argument("--frameworks", default=",".join(FRAMEWORKS))
    parser.add_argument("--quick", action="store_true", help=f"smoke test: {QUICK_EPOCHS} epochs, no RESULTS.md")
    parser.add_argument("--timeout-s", type=float, default=1800.0, help="time limit of one run")
    parser.add_argument("--output", type=Path, help="write the Markdown section here instead")
    return parser


def data_files() -> dict[str, str]:
    """ESOL's and Lipophilicity's CSV files, through kusari.chem's download cache (``KUSARI_DOWNLOAD_MIRROR``
    names a folder holding them, offline)."""
    from kusari.chem.datasets.molnet import get_molnet_filepath
    return {"esol": get_molnet_filepath(esol.DATASET), "lipo": get_molnet_filepath(LIPOPHILICITY)}


def write_split(n_rows: int, path: str) -> dict[str, list[int]]:
    """Draw the benchmark's one split of ``n_rows`` rows and write it as a chemprop ``--splits-file``."""
    from kusari.chem.dataset.splitters import RandomSplitter
    parts = RandomSplitter().train_valid_test_split(numpy.arange(n_rows), *FRACTIONS, seed=SPLIT_SEED)
    split = {key: [int(i) for i in part] for key, part in zip(("train", "val", "test"), parts)}
    with open(path, "w") as f:
        json.dump([split], f)
    return split


def run_one(python: str, job: str, framework: str, options: list[str], timeout_s: float,
            environment: dict[str, str] | None = None) -> dict:
    """Run ``bench.chem.worker JOB`` in its own process; its result with ``cpu_s`` and ``wall_s`` added, or
    ``{"error": ...}``."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "result.json")
        command = [python, "-m", "bench.chem.worker", job, "--framework", framework, "--out", out, *options]
        env = {**os.environ, **THREADS, **(environment or {}), "PYTHONPATH": str(REPO)}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        try:
            done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {timeout_s:.0f} s"}
        wall_s = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0 or not os.path.exists(out):
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            return {"error": f"exit {done.returncode}: {' | '.join(tail)}"}
        with open(out) as f:
            result = json.load(f)
    result["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result["wall_s"] = wall_s
    return result


def score(result: dict, frame: pandas.DataFrame, test_rows: list[int]) -> dict:
    """Add ``rmse`` (test RMSE against the CSV file's labels) to a training run's result, after checking that
    its predictions are those of ``test_rows`` in order; an ``error`` when they are not."""
    from reproductions.chem._molnet import rmse
    if "error" in result:
        return result
    labels = frame[esol.LABEL_COLUMN].to_numpy(numpy.float64)[test_rows]
    predictions = numpy.asarray(result["predictions"], numpy.float64)
    if predictions.shape != labels.shape:
        return {**result, "error": f"{predictions.shape[0]} test predictions for {labels.shape[0]} test rows"}
    if "labels" in result and not numpy.allclose(result["labels"], labels, atol=1e-5):
        return {**result, "error": "the test labels the run held differ from the CSV file's test rows"}
    if "smiles" in result and result["smiles"] != frame[esol.SMILES_COLUMN].iloc[test_rows].tolist():
        return {**result, "error": "the test SMILES the run predicted differ from the CSV file's test rows"}
    return {**result, "rmse": rmse(predictions[:, None], labels[:, None])}


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarize(runs: list[dict], featurized: list[dict], frameworks: list[str]) -> dict:
    """Per framework: mean and std of the test RMSE, medians of CPU and wall time, best epochs, featurization CPU
    time and (GGNN) CPU seconds per training epoch; ``kusari/<peer>``: kusari's RMSE minus the peer's, and the
    medians of kusari's per-seed time ratios."""
    summary = {}
    for framework in frameworks:
        ok = [seed_runs[framework] for seed_runs in runs if "rmse" in seed_runs.get(framework, {})]
        rmses = [r["rmse"] for r in ok]
        summary[framework] = {
            "rmse": statistics.fmean(rmses) if rmses else None,
            "rmse_std": statistics.stdev(rmses) if len(rmses) > 1 else None,
            "cpu_s": _median(r["cpu_s"] for r in ok), "wall_s": _median(r["wall_s"] for r in ok),
            "best_epochs": [r["best_epoch"] for r in ok],
            "featurize_cpu_s": _median(f[framework].get("featurize_cpu_s") for f in featurized if framework in f),
            "featurize_esol_cpu_s": _median(r.get("featurize_cpu_s") for r in ok),
            "epoch_cpu_s": _median(s for r in ok for s in r.get("epoch_cpu_s", [])),
            "errors": [seed_runs[framework]["error"] for seed_runs in runs if "error" in seed_runs.get(framework, {})]
                      + [f[framework]["error"] for f in featurized if "error" in f.get(framework, {})],
        }
    for peer in frameworks:
        if peer == "kusari" or "kusari" not in frameworks:
            continue
        mine, theirs = summary["kusari"], summary[peer]
        both = [s for s in runs if "rmse" in s.get("kusari", {}) and "rmse" in s.get(peer, {})]
        summary[f"kusari/{peer}"] = {
            "rmse": None if None in (mine["rmse"], theirs["rmse"]) else mine["rmse"] - theirs["rmse"],
            **{key: _median(s["kusari"][key] / s[peer][key] for s in both) for key in ("cpu_s", "wall_s")},
            "featurize_cpu_s": _median(f["kusari"]["featurize_cpu_s"] / f[peer]["featurize_cpu_s"] for f in featurized
                                       if "featurize_cpu_s" in f.get("kusari", {}) and "featurize_cpu_s" in f.get(peer, {})),
            **{key: None if None in (mine[key], theirs[key]) else mine[key] / theirs[key]
               for key in ("featurize_esol_cpu_s", "epoch_cpu_s")},
        }
    return summary


def _fmt(value, digits=1, sign=False):
    return "—" if value is None else f"{value:{'+' if sign else ''},.{digits}f}"


def _verdict(ok):
    return "—" if ok is None else ("yes" if ok else "no")


def table(summary: dict, frameworks: list[str]) -> str:
    """The results table: one row per measure, one column per framework, then kusari against each peer (RMSE:
    difference, times: ratio) and, with chemprop, the issue's goals."""
    s = summary
    peers = [f for f in frameworks if f != "kusari"] if "kusari" in frameworks else []
    goals = "chemprop" in peers
    head = ["measure"] + [LABEL[f] for f in frameworks] + [f"kusari vs {LABEL[p].rsplit(' ', 1)[0]}" for p in peers]
    head += ["goal (vs chemprop)", "met"] if goals else []
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def row(label, key, digits, goal=None):
        cells = [_fmt(s[f][key], digits) for f in frameworks]
        if key == "rmse":
            cells = [f"{cell} ± {_fmt(s[f]['rmse_std'], digits)}" if s[f]["rmse_std"] is not None else cell
                     for cell, f in zip(cells, frameworks)]
        versus = [s[f"kusari/{p}"][key] for p in peers]
        cells += [_fmt(v, 3, sign=True) if key == "rmse" else ("—" if v is None else f"{v:.2f}×") for v in versus]
        if goals:
            mine = s["kusari/chemprop"][key]
            cells += ["", ""] if goal is None else [goal[0], _verdict(None if mine is None else mine <= goal[1])]
        lines.append("| " + " | ".join([label, *cells]) + " |")

    row("ESOL test RMSE, mean ± std over seeds", "rmse", 3, (f"≤ chemprop + {RMSE_SLACK}", RMSE_SLACK))
    row("CPU s of the whole run, median", "cpu_s", 1, (f"≤ {TIME_GOAL}×", TIME_GOAL))
    row("wall s of the whole run, median", "wall_s", 1)
    row("featurize Lipophilicity (4,200 molecules), CPU s", "featurize_cpu_s", 2)
    row("featurize ESOL (1,128 molecules) in the training run, CPU s", "featurize_esol_cpu_s", 2)
    row("CPU s per GGNN training epoch (902 molecules, batch 32; validation excluded)", "epoch_cpu_s", 3)
    lines.append("| " + " | ".join(["best validation epoch of each seed"]
                                   + [", ".join(map(str, s[f]["best_epochs"])) or "—" for f in frameworks]
                                   + [""] * (len(head) - 1 - len(frameworks))) + " |")
    return "\n".join(lines)


def per_seed_table(runs: list[dict], frameworks: list[str]) -> str:
    head = ["seed"] + [f"{f} {m}" for f in frameworks for m in ("RMSE", "CPU s", "wall s")]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for seed, seed_runs in enumerate(runs):
        cells = [str(seed)]
        for f in frameworks:
            r = seed_runs.get(f, {})
            cells += ([_fmt(r["rmse"], 3), _fmt(r["cpu_s"]), _fmt(r["wall_s"])] if "rmse" in r else ["failed"] * 3)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown(summary, runs, frameworks, info, split, epochs, command) -> str:
    peers = " and ".join(LABEL[f].rsplit(" ", 1)[0] for f in frameworks if f != "kusari")
    parts = [f"## Chemistry: kusari.chem's GGNN against {peers} on ESOL", "",
             f"Written by `{command}`. One random 80/10/10 split of ESOL ({len(split['train'])}/{len(split['val'])}/"
             f"{len(split['test'])} molecules; kusari.chem's `RandomSplitter`, seed {SPLIT_SEED}) is given to every "
             "framework as index lists (chemprop: `--splits-file`); each of the "
             f"{len(runs)} seed(s) changes only the initial weights and the batch order. Each seed trains every "
             f"framework for {epochs} epochs, each in its own process with one thread (OMP/OpenBLAS/MKL_NUM_THREADS=1, "
             "`torch.set_num_threads(1)`, chemprop `--num-workers 0`), in an order rotated per seed; each keeps the "
             "model of its best validation epoch and predicts the test part. RMSE: computed by the same code from "
             "each run's test predictions and the CSV file's labels. The GGNN columns pad each batch with "
             "`concat_mols` and pass GGNN its `is_real_node` mask (the MoleculeNet reproductions' "
             "`concat_molecules`: Chainer Chemistry's examples pass none, and GGNN's sum readout then adds a term "
             "per padding atom), and score validation and test parts in batches of 64 (the reproductions' "
             "`predict`). CPU time: user + system seconds "
             "of the whole process (interpreter start, imports, featurization, training, validation, test "
             "prediction, chemprop's checkpoint files); medians over seeds, ratios are medians of per-seed ratios. "
             "The goals (issue 14, item 6): kusari's RMSE at most chemprop's + 0.02, in at most 0.5× chemprop's "
             "CPU time (the issue quotes an earlier measurement: Chainer Chemistry 0.7.1 at RMSE 0.657 against "
             "chemprop's 0.649, at 0.80× chemprop's CPU time). Featurizing Lipophilicity: CPU seconds of reading "
             "the CSV file and featurizing all 4,200 molecules, imports excluded, median over seeds. The goal is "
             "stated in CPU time, which other jobs on the machine do not inflate; wall time also counts any wait "
             "for a core.", "",
             "| framework | setup | versions |", "|---|---|---|"]
    for framework in frameworks:
        versions = ", ".join(f"{k} {v}" for k, v in info.get(framework, {}).items()) or "not run"
        parts.append(f"| {framework} | {esol.SETTINGS[framework]} | {versions} |")
    parts += ["", table(summary, frameworks), "", "Per seed:", "", per_seed_table(runs, frameworks), ""]
    errors = [f"{f}: {e}" for f in frameworks for e in summary[f]["errors"]]
    if errors:
        parts += ["Failed runs:", "", *(f"- {e}" for e in errors), ""]
    parts += ["Featurizing Lipophilicity:", "", *(f"- {f}: {featurize.METHOD[f]}." for f in frameworks)]
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parser.parse_args(argv)
    frameworks = [f.strip() for f in args.frameworks.split(",") if f.strip()]
    unknown = [f for f in frameworks if f not in FRAMEWORKS + PREPARED]
    if unknown or not frameworks:
        parser.error(f"--frameworks: unknown {unknown}; choose from {', '.join(FRAMEWORKS)}")
    if args.seeds < 1:
        parser.error(f"--seeds must be >= 1, got {args.seeds}")
    if args.quick and args.epochs is not None:
        parser.error("--quick sets the epochs; give one of --quick and --epochs")
    epochs = QUICK_EPOCHS if args.quick else (args.epochs or EPOCHS)
    if epochs < 1:
        parser.error(f"--epochs must be >= 1, got {epochs}")
    log = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
    pythons = {f: environments.ensure(ENVIRONMENT[f], log=log) for f in frameworks}
    # as in the core bench: NumPy's GEMMs on AVX-512 kernels where the environment pins OpenBLAS to AVX2 ones
    environment, kernels = machine.openblas_override(sorted(set(pythons.values())))
    log(f"bench.chem: {kernels}")
    files = data_files()
    frame = pandas.read_csv(files["esol"])
    runs, featurized, info = [], [], {}
    with tempfile.TemporaryDirectory() as scratch:
        splits = os.path.join(scratch, "splits.json")
        split = write_split(len(frame), splits)
        for seed in range(args.seeds):
            order = frameworks[seed % len(frameworks):] + frameworks[:seed % len(frameworks)]
            seed_runs, seed_features = {}, {}
            for framework in order:
                result = run_one(pythons[framework], "esol", framework,
                                 ["--data", files["esol"], "--splits", splits, "--seed", str(seed),
                                  "--epochs", str(epochs)], args.timeout_s, environment)
                seed_runs[framework] = result = score(result, frame, split["test"])
                info.setdefault(framework, result.get("info", {}))
                shown = result.get("error") or (f"test RMSE {result['rmse']:.3f}, {result['cpu_s']:.1f} CPU s, "
                                                f"{result['wall_s']:.1f} wall s, best epoch {result['best_epoch']}")
                log(f"[seed {seed}] esol {framework}: {shown}")
                seed_features[framework] = result = run_one(pythons[framework], "featurize", framework,
                                                            ["--data", files["lipo"]], args.timeout_s, environment)
                log(f"[seed {seed}] featurize lipophilicity {framework}: "
                    + (result.get("error") or f"{result['molecules']} molecules, {result['featurize_cpu_s']:.2f} CPU s"))
            runs.append(seed_runs)
            featurized.append(seed_features)
    summary = summarize(runs, featurized, frameworks)
    print(table(summary, frameworks))
    command = "python -m bench.chem" + "".join(f" {shlex.quote(a)}" for a in argv)
    text = markdown(summary, runs, frameworks, {k: v for k, v in info.items() if v}, split, epochs, command)
    described = {**machine.describe(), "BLAS kernels": kernels}
    text += "\n" + "\n".join(f"- {k}: {v}" for k, v in described.items()) + "\n"
    if args.output is not None:
        args.output.write_text(text)
        print(f"wrote {args.output}")
    elif epochs == EPOCHS and {"kusari", "chemprop"} <= set(frameworks):
        path = REPO / "bench" / "RESULTS.md"
        results_file.write_section(path, SECTION, text)
        print(f"wrote the chem section of {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
