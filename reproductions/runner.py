"""Running a reproduction: seed, train and evaluate each seed (resumably), write the result JSON, hand off to the zoo.

The reproduction supplies ``train`` and ``evaluate`` (see :class:`reproductions.spec.Reproduction`);
everything here is the same for every domain.
"""
import concurrent.futures
import hashlib
import json
import math
import multiprocessing
import os
import random
import shutil
import time

import numpy

import kusari
from kusari import serializers
from kusari.model_zoo.registry import SHIPPED_FILE_LIMIT
from kusari.utils import file_sha256, kusari_home
from kusari.utils.atomic_write import atomic_path

from reproductions import catalog, environment
from reproductions.report import format_value
from reproductions.spec import NotRunHere, Reproduction

DEFAULT_OUT = os.path.join(environment.REPO_ROOT, "reproductions", "results")
DEFAULT_WEIGHTS_DIR = os.path.join(environment.REPO_ROOT, "model_zoo", "weights")
ARTIFACT_FILE = "artifact.npz"


class DirtyTreeError(ValueError):
    """A full-tier run was asked for on a tree that differs from its commit."""


def default_work_dir() -> str:
    """``KUSARI_HOME/reproductions``: where per-seed snapshots and logs live while training."""
    return os.path.join(kusari_home(), "reproductions")


def slug(name: str, tier: str) -> str:
    """File-name form of a reproduction and tier: ``('vision/mnist_mlp', 'full')`` ->
    ``'vision.mnist_mlp.full'``."""
    return f"{name.replace('/', '.')}.{tier}"


def _fingerprint(repro: Reproduction, tier: str) -> str:
    """A short hash of what determines a tier's training, so a changed recipe never reuses old seeds."""
    spec = repro.tier(tier)
    key = json.dumps([spec.budget, repro.budget_unit, spec.options, repro.config, repro.recipe],
                     sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:8]


def result_path(out: str, name: str, tier: str) -> str:
    """Where the result JSON of ``name``'s ``tier`` is written in ``out``."""
    return os.path.join(out, slug(name, tier) + ".json")


def save_artifact(repro: Reproduction, artifact, path: str) -> None:
    """Write ``artifact`` as the one ``.npz`` file ``path`` with ``repro.save``, or
    :func:`kusari.serializers.save_npz` for a Link when the reproduction declares no ``save``."""
    if repro.save is not None:
        with atomic_path(path) as tmp:
            repro.save(artifact, tmp)
    elif isinstance(artifact, kusari.Link):
        serializers.save_npz(path, artifact)
    else:
        raise TypeError(f"{repro.name}: train returned a {type(artifact).__name__}, not a Link; "
                        f"declare save=(artifact, path) to write it as one .npz file")


class _Log:
    """Prints a line and appends it to a log file."""

    def __init__(self, path: str):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.path = path

    def __call__(self, message: str) -> None:
        line = f"[{time.strftime('%H:%M:%S')}] {message}"
        print(line, flush=True)
        with open(self.path, "a") as f:
            f.write(line + "\n")


def _measure(repro: Reproduction, artifact, tier: str, seed: int) -> float:
    value = repro.evaluate(artifact, repro.tier(tier), seed)
    if isinstance(value, bool) or not isinstance(value, (int, float, numpy.floating, numpy.integer)):
        raise TypeError(f"{repro.name}: evaluate must return a float, got {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{repro.name}: evaluate returned {value} for seed {seed}")
    return float(value)


def _seed_record(repro: Reproduction, tier: str, seed: int, work: str, log) -> dict:
    """Seed, train, evaluate (and save) one seed unless its ``seed_result.json`` exists; returns that record."""
    seed_dir = os.path.join(work, f"seed{seed}")
    done = os.path.join(seed_dir, "seed_result.json")
    metric = repro.target.metric
    if os.path.exists(done):
        with open(done) as f:
            record = json.load(f)
        log(f"seed {seed}: already finished, {metric}={format_value(record['value'], metric)}")
        return record
    os.makedirs(seed_dir, exist_ok=True)
    numpy.random.seed(seed)
    random.seed(seed)
    spec = repro.tier(tier)
    log(f"seed {seed}: training {spec.budget} {repro.budget_unit} in {seed_dir}")
    started = time.perf_counter()
    artifact = repro.train(spec, seed, seed_dir)
    trained = time.perf_counter()
    value = _measure(repro, artifact, tier, seed)
    evaluated = time.perf_counter()
    if repro.zoo_name is not None:
        save_artifact(repro, artifact, os.path.join(seed_dir, ARTIFACT_FILE))
    record = {"seed": seed, "value": value, "train_seconds": round(trained - started, 1),
              "evaluate_seconds": round(evaluated - trained, 1)}
    with atomic_path(done) as tmp, open(tmp, "w") as f:  # a killed run never leaves a half-written marker
        json.dump(record, f)
    log(f"seed {seed}: {metric}={format_value(value, metric)} after {trained - started:.0f} s training, "
        f"{evaluated - trained:.0f} s evaluating")
    return record


def _seed_in_worker(name: str, tier: str, seed: int, work: str) -> dict:
    """:func:`_seed_record` in a worker process, for a reproduction looked up in the catalog."""
    return _seed_record(catalog.get(name), tier, seed, work, _Log(os.path.join(work, "run.log")))


def _hand_off(repro: Reproduction, work: str, weights_dir: str, record: dict, log) -> dict:
    """Copy seed 0's artifact to the zoo's shipped files (or leave it in ``work`` when too large to ship)."""
    source = os.path.join(work, f"seed{record['seed']}", ARTIFACT_FILE)
    if not os.path.isfile(source):
        raise FileNotFoundError(f"run: {source} is missing (seed {record['seed']} finished without "
                                f"it); delete {os.path.dirname(source)} to train that seed again")
    size = os.path.getsize(source)
    name = repro.zoo_name + ".npz"
    weights = {"zoo_name": repro.zoo_name, "file": name, "sha256": file_sha256(source),
               "seed": record["seed"], "value": record["value"]}
    if size > SHIPPED_FILE_LIMIT:
        target = os.path.join(work, name)
        weights["file"] = target
        log(f"zoo file: {size} bytes is over the {SHIPPED_FILE_LIMIT} byte limit of shipped files; "
            f"publish {target} and register it by url")
    else:
        os.makedirs(weights_dir, exist_ok=True)
        target = os.path.join(weights_dir, name)
    with atomic_path(target) as tmp:
        shutil.copyfile(source, tmp)
    log(f"zoo file: {target} sha256 {weights['sha256']}")
    return weights


def run(repro: Reproduction, tier: str, seeds: int, out: str = DEFAULT_OUT, work: str | None = None,
        weights_dir: str = DEFAULT_WEIGHTS_DIR, jobs: int = 1, allow_dirty: bool = False) -> dict:
    """Train ``seeds`` seeds (0, 1, ...) of ``repro``'s ``tier`` and write the result JSON to ``out``.

    Before each seed NumPy's global RandomState and Python's ``random`` are seeded with it. A seed
    that finished before (its ``seed_result.json`` exists in the work folder) is not trained again;
    an interrupted one is handed its folder again, so a train step that snapshots can resume. With
    ``jobs > 1`` seeds train in that many worker processes (the reproduction must then be in the
    catalog).

    A result is publishable when the git tree is clean (:func:`environment.git_commit`): only then
    does RESULTS.md show it and does a full tier hand its seed 0 to the zoo (``save`` writes it as
    ``weights_dir/<zoo_name>.npz``, its SHA-256 is recorded). A full tier refuses a dirty tree
    unless ``allow_dirty`` (development runs; not publishable); a quick tier may run dirty.

    Parameters
    ----------
    repro : Reproduction
        What to run.
    tier : str
        ``'quick'`` or ``'full'`` (any tier ``repro`` declares).
    seeds : int
        How many seeds, >= 1.
    out : str
        Folder of the result JSON.
    work : str or None
        Folder of the per-seed work folders (default ``KUSARI_HOME/reproductions``).
    weights_dir : str
        Where a full tier writes its zoo file.
    jobs : int
        Worker processes, >= 1.
    allow_dirty : bool
        Run a full tier on a dirty tree anyway.

    Returns
    -------
    dict
        The result record (also written to ``result_path(out, repro.name, tier)``).
    """
    spec = repro.tier(tier)
    if isinstance(seeds, bool) or not (isinstance(seeds, int) and seeds >= 1):
        raise ValueError(f"run: seeds must be a positive int, got {seeds!r}")
    if isinstance(jobs, bool) or not (isinstance(jobs, int) and jobs >= 1):
        raise ValueError(f"run: jobs must be a positive int, got {jobs!r}")
    commit = environment.git_commit()
    publishable = environment.is_clean(commit)
    if tier == "full" and not publishable and not allow_dirty:
        raise DirtyTreeError(
            f"run: the full tier records the commit it ran at, but the tree is at {commit} "
            f"(modified tracked files or untracked .py files); commit first, or pass "
            f"allow_dirty=True (--allow-dirty) for a development run that is not published")
    work = os.path.join(work or default_work_dir(),
                        f"{slug(repro.name, tier)}-{_fingerprint(repro, tier)}")
    log = _Log(os.path.join(work, "run.log"))
    log(f"{repro.name} [{tier}]: {spec.note or repro.recipe}")
    started = time.perf_counter()
    bound = repro.bound(tier)
    try:
        if jobs == 1:
            per_seed = [_seed_record(repro, tier, seed, work, log) for seed in range(seeds)]
        else:
            if catalog.all_reproductions().get(repro.name) is not repro:
                raise ValueError(f"run: jobs={jobs} needs {repro.name!r} to be in reproductions.catalog")
            context = multiprocessing.get_context("spawn")
            with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
                per_seed = list(pool.map(_seed_in_worker, [repro.name] * seeds, [tier] * seeds,
                                         range(seeds), [work] * seeds))
    except NotRunHere as e:
        # what the tier needs is absent: recorded with its reason, and no number
        result = {**_description(repro, tier, bound), "not_run": str(e), "seeds": [], "values": [],
                  "publishable": publishable, "wall_time_s": 0.0,
                  "run_wall_time_s": round(time.perf_counter() - started, 1), "git_commit": commit,
                  **environment.describe()}
        path = _write_result(out, repro.name, tier, result)
        log(f"{repro.name} [{tier}]: not run here: {e}; wrote {path}")
        return result
    values = numpy.array([r["value"] for r in per_seed])
    mean = float(values.mean())
    result = {
        **_description(repro, tier, bound),
        "seeds": [r["seed"] for r in per_seed],
        "values": [r["value"] for r in per_seed],
        "mean": mean,
        "std": float(values.std(ddof=1)) if len(values) > 1 else 0.0,
        "passed": repro.target.passes(mean, bound),
        "publishable": publishable,
        "wall_time_s": round(sum(r["train_seconds"] for r in per_seed), 1),
        "run_wall_time_s": round(time.perf_counter() - started, 1),
        "git_commit": commit,
        **environment.describe(),
    }
    if tier == "full" and repro.zoo_name is not None:
        if publishable:
            result["weights"] = _hand_off(repro, work, weights_dir, per_seed[0], log)
        else:
            log(f"zoo file: not handed off, the tree is dirty ({commit})")
    path = _write_result(out, repro.name, tier, result)
    verdict = "PASS" if result["passed"] else "FAIL"
    metric = repro.target.metric
    log(f"{repro.name} [{tier}]: {metric} {format_value(mean, metric)} ± "
        f"{format_value(result['std'], metric)} over {seeds} seed(s), bound "
        f"{format_value(bound, metric)}: {verdict}; wrote {path}"
        + ("" if publishable else " (not publishable: dirty tree)"))
    return result


def _description(repro: Reproduction, tier: str, bound: float) -> dict:
    """The fields of a result record that describe what was asked for (not what was measured)."""
    spec = repro.tier(tier)
    return {
        "name": repro.name,
        "task": repro.task,
        "tier": tier,
        "recipe": repro.recipe,
        "budget": spec.budget,
        "budget_unit": repro.budget_unit,
        "options": spec.options,
        "config": repro.config,
        "target": {"value": repro.target.value, "metric": repro.target.metric,
                   "direction": repro.target.direction, "tolerance": repro.target.tolerance,
                   "citation": repro.target.citation},
        "bound": bound,
    }


def _write_result(out: str, name: str, tier: str, result: dict) -> str:
    """Write ``result`` as the JSON file of ``name``'s ``tier`` in ``out``; returns its path."""
    os.makedirs(out, exist_ok=True)
    path = result_path(out, name, tier)
    with atomic_path(path) as tmp, open(tmp, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    return path
