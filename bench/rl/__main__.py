"""Command line: ``python -m bench.rl [WORKLOAD ...] [--seeds N] [--frameworks kusari,sb3,pfrl] [--steps N]``.

Each (seed, workload) trains every framework once, in an order rotated per seed, each in its own process with
one thread. The table gives the median training wall time over seeds, kusari's ratios (median of the per-seed
ratios), and the mean evaluation return (20 episodes per seed on fresh seeds, averaged over seeds). A run of
every workload at their full step counts writes its section of bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import environments, machine, results_file
from bench.rl import workloads

GOAL = 0.7            # the issue's goal: kusari's wall time at most 0.7x SB3's
RETURN_SLACK = 0.10   # ... with a mean return no worse than SB3's minus 10%
SECTION = "rl"
THREADS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench.rl", description=__doc__.split("\n\n")[1])
    parser.add_argument("workloads", nargs="*", metavar="WORKLOAD", help=f"default: all of {', '.join(workloads.WORKLOADS)}")
    parser.add_argument("--seeds", type=int, default=3, help="seeds per workload (default 3)")
    parser.add_argument("--frameworks", default=",".join(workloads.FRAMEWORKS))
    parser.add_argument("--steps", type=int, help="environment steps for every workload (a smoke test: no RESULTS.md)")
    parser.add_argument("--timeout-s", type=float, default=1800.0, help="time limit of one training run")
    parser.add_argument("--output", type=Path, help="write the Markdown section here instead")
    return parser


def run_one(python: str, workload: str, framework: str, seed: int, steps: int | None, timeout_s: float,
            environment: dict[str, str] | None = None) -> dict:
    """Train and evaluate once in a worker process (``environment`` added to its variables);
    ``{"error": ...}`` when it fails."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "result.json")
        command = [python, "-m", "bench.rl.worker", "--workload", workload, "--framework", framework,
                   "--seed", str(seed), "--out", out] + (["--steps", str(steps)] if steps else [])
        repo = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, **THREADS, **(environment or {}), "PYTHONPATH": repo}
        try:
            done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {timeout_s:.0f} s"}
        if done.returncode != 0 or not os.path.exists(out):
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            return {"error": f"exit {done.returncode}: {' | '.join(tail)}"}
        with open(out) as f:
            return json.load(f)


def summarize(runs: dict, frameworks: list[str]) -> list[dict]:
    """One row per workload: median train seconds, mean return, kusari's per-seed-median ratios."""
    rows = []
    for workload, per_seed in runs.items():
        row = {"workload": workload}
        for framework in frameworks:
            ok = [seed_runs[framework] for seed_runs in per_seed if "error" not in seed_runs.get(framework, {"error": 1})]
            row[framework] = {"train_s": statistics.median(r["train_s"] for r in ok) if ok else None,
                              "return": statistics.fmean(statistics.fmean(r["returns"]) for r in ok) if ok else None,
                              "errors": [seed_runs[framework]["error"] for seed_runs in per_seed
                                         if "error" in seed_runs.get(framework, {})]}
        for peer in frameworks:
            if peer == "kusari":
                continue
            ratios = [s["kusari"]["train_s"] / s[peer]["train_s"] for s in per_seed
                      if "train_s" in s.get("kusari", {}) and "train_s" in s.get(peer, {})]
            row[f"kusari/{peer}"] = statistics.median(ratios) if ratios else None
        rows.append(row)
    return rows


def _fmt(value, digits=1):
    return "—" if value is None else f"{value:,.{digits}f}"


def table(rows: list[dict], frameworks: list[str]) -> str:
    peers = [f for f in frameworks if f != "kusari"]
    head = (["workload"] + [f"{f} s" for f in frameworks] + [f"kusari/{p}" for p in peers]
            + [f"{f} return" for f in frameworks])
    has_goal = "kusari" in frameworks and "sb3" in frameworks
    if has_goal:
        head += [f"time ≤ {GOAL}× SB3", "return ≥ SB3 − 10%"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [workloads.load(row["workload"]).DESCRIPTION]
        cells += [_fmt(row[f]["train_s"]) for f in frameworks]
        cells += [_fmt(row[f"kusari/{p}"], 2) for p in peers]
        cells += [_fmt(row[f]["return"]) for f in frameworks]
        if has_goal:
            ratio, mine, theirs = row["kusari/sb3"], row["kusari"]["return"], row["sb3"]["return"]
            cells.append("—" if ratio is None else ("yes" if ratio <= GOAL else "no"))
            cells.append("—" if None in (mine, theirs) else
                         ("yes" if mine >= theirs - RETURN_SLACK * abs(theirs) else "no"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def per_seed_table(runs: dict, frameworks: list[str]) -> str:
    """Each seed's training seconds per framework and kusari's ratio to each peer: the spread behind the
    medians (one run's time moves by several per cent with the machine's load)."""
    peers = [f for f in frameworks if f != "kusari"] if "kusari" in frameworks else []
    head = ["workload", "seed"] + [f"{f} s" for f in frameworks] + [f"kusari/{p}" for p in peers]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for workload, per_seed in runs.items():
        for seed, seed_runs in enumerate(per_seed):
            seconds = {f: seed_runs.get(f, {}).get("train_s") for f in frameworks}
            cells = [workload, str(seed)] + [_fmt(seconds[f]) for f in frameworks]
            cells += [_fmt(None if None in (seconds["kusari"], seconds[p]) else seconds["kusari"] / seconds[p], 3)
                      for p in peers]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown(rows, frameworks, info, seeds, command, runs=None) -> str:
    parts = ["## Reinforcement learning: kusari.rl against Stable-Baselines3 and PFRL", "",
             f"Written by `{command}`. Each of {seeds} seed(s) trains every workload once per framework, each run in "
             "its own process with one thread (OMP/OpenBLAS/MKL_NUM_THREADS=1, `torch.set_num_threads(1)`), in an "
             "order rotated per seed. Time: the whole training loop (model construction and environment steps "
             "included, evaluation excluded), median over seeds; each ratio is the median of the per-seed ratios. "
             "Return: mean of 20 evaluation episodes per seed (deterministic policy, seeds never used in training), "
             "averaged over seeds. The goal (issue 13): kusari ≤ 0.7× SB3's time with a return no worse than "
             "SB3's minus 10%.", "",
             "| framework | versions |", "|---|---|"]
    for framework in frameworks:
        parts.append(f"| {framework} | {', '.join(f'{k} {v}' for k, v in info.get(framework, {}).items()) or 'not run'} |")
    parts += ["", table(rows, frameworks), ""]
    if runs is not None:
        parts += ["Per seed:", "", per_seed_table(runs, frameworks), ""]
    errors = [f"{row['workload']} / {f}: {e}" for row in rows for f in frameworks for e in row[f]["errors"]]
    if errors:
        parts += ["Failed runs:", "", *(f"- {e}" for e in errors), ""]
    parts += ["Workloads:", ""]
    for row in rows:
        module = workloads.load(row["workload"])
        settings = ", ".join(f"{k}={v}" for k, v in module.SETTINGS.items() if k != "source")
        parts.append(f"- `{row['workload']}`: {module.SETTINGS['source']}. {settings}.")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parser.parse_args(argv)
    frameworks = [f.strip() for f in args.frameworks.split(",") if f.strip()]
    selected = args.workloads or list(workloads.WORKLOADS)
    try:
        for name in selected:
            workloads.load(name)
        unknown = [f for f in frameworks if f not in workloads.FRAMEWORKS]
        if unknown or not frameworks:
            raise ValueError(f"--frameworks: unknown {unknown}; choose from {', '.join(workloads.FRAMEWORKS)}")
        if args.seeds < 1:
            raise ValueError(f"--seeds must be >= 1, got {args.seeds}")
    except ValueError as error:
        parser.error(str(error))
    pythons = {f: environments.ensure(workloads.ENVIRONMENT[f], log=lambda line: print(line, file=sys.stderr))
               for f in frameworks}
    # as in the core bench: NumPy's GEMMs on the AVX-512 kernels that torch's MKL uses, when the
    # environment pins OpenBLAS to AVX2 ones
    environment, kernels = machine.openblas_override(sorted(set(pythons.values())))
    print(f"bench.rl: {kernels}", file=sys.stderr)
    runs = {name: [] for name in selected}
    info = {}
    for seed in range(args.seeds):
        order = frameworks[seed % len(frameworks):] + frameworks[:seed % len(frameworks)]
        for name in selected:
            seed_runs = {}
            for framework in order:
                result = run_one(pythons[framework], name, framework, seed, args.steps, args.timeout_s,
                                 environment)
                seed_runs[framework] = result
                info.setdefault(framework, result.get("info", {}))
                shown = result.get("error") or f"{result['train_s']:.1f} s, return {statistics.fmean(result['returns']):.1f}"
                print(f"[seed {seed}] {name} {framework}: {shown}", file=sys.stderr, flush=True)
            runs[name].append(seed_runs)
    rows = summarize(runs, frameworks)
    print(table(rows, frameworks))
    command = "python -m bench.rl" + "".join(f" {shlex.quote(a)}" for a in argv)
    text = markdown(rows, frameworks, {k: v for k, v in info.items() if v}, args.seeds, command, runs)
    described = {**machine.describe(), "BLAS kernels": kernels}
    text += "\n" + "\n".join(f"- {k}: {v}" for k, v in described.items()) + "\n"
    if args.output is not None:
        args.output.write_text(text)
        print(f"wrote {args.output}")
    elif args.steps is None and selected == list(workloads.WORKLOADS) and frameworks == list(workloads.FRAMEWORKS):
        path = Path(__file__).resolve().parents[1] / "RESULTS.md"
        results_file.write_section(path, SECTION, text)
        print(f"wrote the RL section of {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
