"""What the reproductions of ChainerCV's training examples share: one declaration per example that runs
``examples/vision/train_*.py`` and reads the score its evaluator extension logged.

The quick tier writes a tiny dataset in the real dataset's layout (:mod:`reproductions.vision._fixtures`)
and runs the script on it for a few iterations on the CPU: a check that the recipe runs end to end and
scores a number, not a reproduction of the score. The full tier runs ChainerCV's recipe (its command,
on one GPU) on the real dataset; where the dataset or a GPU is absent it raises :class:`NotRunHere`
saying which, so RESULTS.md shows "not run here" and never a number that was not measured.
"""
import json
import math
import os
import subprocess
import sys

from reproductions import environment
from reproductions.spec import NotRunHere, Reproduction, Target, Tier
from reproductions.vision import _fixtures

EXAMPLES = os.path.join(environment.REPO_ROOT, "examples", "vision")
QUICK_NOTE = "pipeline check on a tiny dataset in the real layout: trains a few iterations on the CPU and scores "


def gpu_count() -> int:
    """The CUDA GPUs CuPy sees (0 without CuPy)."""
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:   # no CuPy, no driver, no device: all mean no GPU to train on
        return 0


def dataset_root() -> str:
    from kusari.dataset import get_dataset_root
    return get_dataset_root()


def check_full_tier(datasets: dict, gpu: bool = True) -> None:
    """Raise NotRunHere naming what is absent: a CUDA GPU (if ``gpu``), and each of ``datasets``
    (``{what: folder relative to the dataset root}``) whose folder does not exist."""
    root = dataset_root()
    absent = [f"{what} ({folder})" for what, folder in datasets.items() if not os.path.isdir(os.path.join(root, folder))]
    reasons = []
    if gpu and gpu_count() == 0:
        reasons.append("no CUDA GPU (ChainerCV trained on GPUs; CuPy sees none)")
    if absent:
        reasons.append(f"absent from the dataset root {root}: {', '.join(absent)}")
    if reasons:
        raise NotRunHere("; ".join(reasons))


def run_script(script: str, argv: list, dataset_root_dir: str | None = None) -> None:
    """Run ``examples/vision/<script>`` with ``argv`` in a child process (its own data-loading workers and
    signal handling, as a user runs it), with ``KUSARI_DATASET_ROOT`` set to ``dataset_root_dir`` if
    given; RuntimeError with the end of its output when it fails."""
    env = dict(os.environ, MPLBACKEND="Agg")
    if dataset_root_dir is not None:
        env["KUSARI_DATASET_ROOT"] = dataset_root_dir
    result = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *map(str, argv)], env=env,
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{script} {' '.join(map(str, argv))}: exit {result.returncode}\n"
                           f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")


def logged_score(out: str, key: str) -> float:
    """The last value of ``key`` in the ``LogReport`` file ``<out>/log``; ValueError if none is there."""
    path = os.path.join(out, "log")
    with open(path) as f:
        values = [entry[key] for entry in json.load(f) if key in entry]
    if not values or not math.isfinite(values[-1]):
        raise ValueError(f"{path}: no finite {key!r} was logged (got {values[-1:]})")
    return float(values[-1])


def script_reproduction(*, name: str, task: str, target: Target, script: str, quick_fixture: str,
                        quick_args: list, quick_iterations: int, full_args: list, full_iterations: int,
                        full_datasets: dict, score_key: str, recipe: str, budget_unit: str = "iterations",
                        error: bool = False) -> Reproduction:
    """A reproduction of one of ChainerCV's training examples.

    Parameters
    ----------
    quick_fixture : str
        The :mod:`_fixtures` writer whose dataset the quick tier trains on (``'voc'``, ``'coco'``, ...);
        it returns the dataset root and the folders the arguments name (``{root}``, ``{data}``...).
    quick_args, full_args : lists of str
        The script's arguments for each tier (``--out`` and ``--seed`` are added, and ``--gpu 0`` to the
        full tier's); ``{work}`` is the seed's work folder, ``{root}`` the dataset root (the fixture's in the quick
        tier, whose other ``{...}`` fields are the fixture's folders).
    full_datasets : dict
        ``{what: folder under the dataset root}`` that the full tier needs.
    score_key : str
        The key of the evaluator's score in the log.
    error : bool
        The target is an error rate: ``1 - score``.
    """
    def train(tier, seed, work_dir):
        out = os.path.join(work_dir, "out")
        if tier.options["data"] == "fixture":
            folders = _fixtures.WRITERS[quick_fixture](os.path.join(work_dir, "data"))
            args, root = quick_args, folders["root"]
        else:
            check_full_tier(full_datasets)
            folders, args, root = {"root": dataset_root()}, [*full_args, "--gpu", "0"], None
        argv = [a.format(work=work_dir, **folders) for a in args]
        run_script(script, [*argv, "--seed", seed, "--out", out], root)
        return out

    def evaluate(out, tier, seed):
        score = logged_score(out, score_key)
        return 1 - score if error else score

    worst = 1.0 if error else 0.0
    return Reproduction(
        name=name, task=task, target=target, budget_unit=budget_unit,
        tiers={"quick": Tier(budget=quick_iterations, bound=worst, options={"data": "fixture"},
                             note=QUICK_NOTE + f"{target.metric} (any finite value passes)"),
               "full": Tier(budget=full_iterations, options={"data": "real"},
                            note=f"ChainerCV's recipe: {script} {' '.join(full_args)} --gpu 0")},
        train=train, evaluate=evaluate, recipe=recipe,
        config={"script": script, "quick_args": quick_args, "full_args": full_args})
