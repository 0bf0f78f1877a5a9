"""Running a reproduction: train each seed (resumably), measure, write the result JSON and zoo weights."""
import concurrent.futures
import hashlib
import json
import multiprocessing
import os
import shutil
import time

import numpy

import kusari
import kusari.links as L
from kusari import serializers
from kusari.dataset import concat_examples
from kusari.datasets import SubDataset
from kusari.iterators import SerialIterator, ShuffleOrderSampler
from kusari.training import StandardUpdater, Trainer, extensions

from reproductions import catalog, environment
from reproductions.spec import Reproduction

DEFAULT_OUT = os.path.join(environment.REPO_ROOT, "reproductions", "results")
DEFAULT_WEIGHTS_DIR = os.path.join(environment.REPO_ROOT, "model_zoo", "weights")


def default_work_dir() -> str:
    """``KUSARI_HOME/reproductions``: where per-seed snapshots and logs live while training."""
    home = os.environ.get("KUSARI_HOME") or os.path.join("~", ".kusari")
    return os.path.join(os.path.expanduser(home), "reproductions")


def slug(name: str, tier: str) -> str:
    """File-name form of a reproduction and tier: ``('vision/mnist_mlp', 'full')`` ->
    ``'vision.mnist_mlp.full'``."""
    return f"{name.replace('/', '.')}.{tier}"


def _fingerprint(repro: Reproduction, tier: str) -> str:
    """A short hash of what determines a tier's training, so a changed recipe never reuses old seeds."""
    spec = repro.tier(tier)
    key = json.dumps([spec.epochs, spec.train_size, repro.batch_size, repro.recipe])
    return hashlib.sha256(key.encode()).hexdigest()[:8]


def result_path(out: str, name: str, tier: str) -> str:
    """Where the result JSON of ``name``'s ``tier`` is written in ``out``."""
    return os.path.join(out, slug(name, tier) + ".json")


def classification_error(model, dataset, batch_size: int = 1000) -> float:
    """Fraction of ``dataset``'s ``(x, label)`` pairs whose argmax logit is not the label."""
    wrong = 0
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        for start in range(0, len(dataset), batch_size):
            x, t = concat_examples(dataset[start:start + batch_size])
            y = model(x).array
            wrong += int((y.argmax(axis=1) != t).sum())
    return wrong / len(dataset)


def sha256_of(path: str) -> str:
    """Hex SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


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


def _train_seed(repro: Reproduction, tier: str, seed: int, work: str, data, log):
    """Train one seed in ``work`` (resuming from its newest snapshot); returns (model, seconds)."""
    spec = repro.tier(tier)
    train, _ = data
    if spec.train_size is not None:
        train = SubDataset(train, 0, min(spec.train_size, len(train)))
    numpy.random.seed(seed)
    model = repro.make_model()
    iterations = spec.epochs * -(-len(train) // repro.batch_size)
    optimizer, schedule = repro.make_optimizer(iterations)
    optimizer.setup(L.Classifier(model))
    iterator = SerialIterator(train, repro.batch_size,
                              order_sampler=ShuffleOrderSampler(numpy.random.RandomState(seed)))
    trainer = Trainer(StandardUpdater(iterator, optimizer), (spec.epochs, "epoch"), out=work)
    trainer.extend(extensions.snapshot(filename="snapshot_epoch_{.updater.epoch}", n_retains=1,
                                       autoload=True), trigger=(1, "epoch"))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(["epoch", "main/loss", "main/accuracy", "elapsed_time"]))
    trainer.extend(extensions.ProgressBar(update_interval=100))
    for extension in schedule:
        trainer.extend(extension)
    log(f"seed {seed}: training {spec.epochs} epochs on {len(train)} examples in {work}")
    trainer.run()
    return model, trainer.elapsed_time


def _seed_record(repro: Reproduction, tier: str, seed: int, work: str, log) -> dict:
    """Train and evaluate one seed unless its ``seed_result.json`` exists; returns that record."""
    seed_dir = os.path.join(work, f"seed{seed}")
    done = os.path.join(seed_dir, "seed_result.json")
    if os.path.exists(done):
        with open(done) as f:
            record = json.load(f)
        log(f"seed {seed}: already finished, {repro.target.metric}={record['value']:.4%}")
        return record
    data = repro.load_data()
    model, seconds = _train_seed(repro, tier, seed, seed_dir, data, log)
    value = classification_error(model, data[1])
    serializers.save_npz(os.path.join(seed_dir, "model.npz"), model)
    record = {"seed": seed, "value": value, "train_seconds": round(seconds, 1)}
    with open(done + ".part", "w") as f:
        json.dump(record, f)
    os.replace(done + ".part", done)  # a killed run never leaves a half-written marker
    log(f"seed {seed}: {repro.target.metric}={value:.4%} after {seconds:.0f} s")
    return record


def _seed_in_worker(name: str, tier: str, seed: int, work: str) -> dict:
    """:func:`_seed_record` in a worker process, for a reproduction looked up in the catalog."""
    return _seed_record(catalog.get(name), tier, seed, work, _Log(os.path.join(work, "run.log")))


def run(repro: Reproduction, tier: str, seeds: int, out: str = DEFAULT_OUT, work: str | None = None,
        weights_dir: str = DEFAULT_WEIGHTS_DIR, jobs: int = 1) -> dict:
    """Train ``seeds`` seeds (0, 1, ...) of ``repro``'s ``tier`` and write the result JSON to ``out``.

    A seed that finished before (its ``seed_result.json`` exists in the work folder) is not trained
    again; an interrupted one resumes from its last epoch snapshot. With ``jobs > 1`` seeds train in
    that many worker processes (the reproduction must then be in the catalog). For the full tier
    the first seed's weights are copied to ``weights_dir/<zoo_name>.npz`` and their SHA-256 recorded.

    Returns:
        dict: the result record (also written to ``result_path(out, repro.name, tier)``).
    """
    spec = repro.tier(tier)
    if not (isinstance(seeds, int) and seeds >= 1):
        raise ValueError(f"run: seeds must be a positive int, got {seeds!r}")
    if not (isinstance(jobs, int) and jobs >= 1):
        raise ValueError(f"run: jobs must be a positive int, got {jobs!r}")
    work = os.path.join(work or default_work_dir(),
                        f"{slug(repro.name, tier)}-{_fingerprint(repro, tier)}")
    log = _Log(os.path.join(work, "run.log"))
    log(f"{repro.name} [{tier}]: {spec.note or repro.recipe}")
    started = time.perf_counter()
    if jobs == 1:
        per_seed = [_seed_record(repro, tier, seed, work, log) for seed in range(seeds)]
    else:
        if catalog.all_reproductions().get(repro.name) is not repro:
            raise ValueError(f"run: jobs={jobs} needs {repro.name!r} to be in reproductions.catalog")
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
            per_seed = list(pool.map(_seed_in_worker, [repro.name] * seeds, [tier] * seeds,
                                     range(seeds), [work] * seeds))
    values = numpy.array([r["value"] for r in per_seed])
    bound = repro.bound(tier)
    mean = float(values.mean())
    result = {
        "name": repro.name,
        "task": repro.task,
        "tier": tier,
        "recipe": repro.recipe,
        "epochs": spec.epochs,
        "train_size": spec.train_size,
        "target": {"value": repro.target.value, "metric": repro.target.metric,
                   "direction": repro.target.direction, "tolerance": repro.target.tolerance,
                   "citation": repro.target.citation},
        "bound": bound,
        "seeds": [r["seed"] for r in per_seed],
        "values": [r["value"] for r in per_seed],
        "mean": mean,
        "std": float(values.std(ddof=1)) if len(values) > 1 else 0.0,
        "passed": repro.target.passes(mean, bound),
        "wall_time_s": round(sum(r["train_seconds"] for r in per_seed), 1),
        "run_wall_time_s": round(time.perf_counter() - started, 1),
        **environment.describe(),
    }
    if tier == "full" and repro.zoo_name is not None:
        os.makedirs(weights_dir, exist_ok=True)
        weights = os.path.join(weights_dir, repro.zoo_name + ".npz")
        shutil.copyfile(os.path.join(work, "seed0", "model.npz"), weights)
        result["weights"] = {"zoo_name": repro.zoo_name, "file": os.path.basename(weights),
                             "sha256": sha256_of(weights), "seed": per_seed[0]["seed"],
                             "value": per_seed[0]["value"]}
        log(f"weights: {weights} sha256 {result['weights']['sha256']}")
    os.makedirs(out, exist_ok=True)
    path = result_path(out, repro.name, tier)
    with open(path, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    verdict = "PASS" if result["passed"] else "FAIL"
    log(f"{repro.name} [{tier}]: {repro.target.metric} {mean:.4%} ± {result['std']:.4%} over "
        f"{seeds} seed(s), bound {bound:.4%}: {verdict}; wrote {path}")
    return result

