"""The files a training run writes into its ``outdir``: the folder itself, scores.txt and saved agents."""
import logging
import os
from collections.abc import Sequence
from typing import Any

SCORES_FILE = "scores.txt"
BASIC_COLUMNS = ("steps", "episodes", "elapsed", "mean", "median", "stdev", "max", "min")


def make_outdir(outdir: str, caller: str) -> None:
    """Create ``outdir`` (its parent must exist: a missing parent is more likely a typo than a wish)."""
    parent = os.path.dirname(os.path.abspath(outdir))
    if not os.path.isdir(parent):
        raise FileNotFoundError(f"{caller}: the parent folder of outdir {outdir!r} ({parent}) does "
                                "not exist; create it first")
    os.makedirs(outdir, exist_ok=True)


def score_columns(agent: Any, env: Any) -> tuple:
    """The columns of scores.txt: the basic ones, then the agent's and the env's statistics names."""
    env_stats = getattr(env, "get_statistics", list)()
    return BASIC_COLUMNS + tuple(name for name, _ in agent.get_statistics()) + tuple(
        name for name, _ in env_stats)


def start_scores(outdir: str, columns: Sequence[str], resume: bool) -> float:
    """Write the header of scores.txt, or keep the rows of a run being resumed.

    Returns the best mean score recorded so far (``-inf`` for a fresh file).
    """
    path = os.path.join(outdir, SCORES_FILE)
    header = "\t".join(columns)
    if resume and os.path.isfile(path):
        with open(path) as f:
            lines = f.read().splitlines()
        if lines and lines[0] != header:
            raise ValueError(f"resuming into {path}: its header {lines[0]!r} differs from this run's "
                             f"{header!r}; use a new outdir")
        means = [float(line.split("\t")[BASIC_COLUMNS.index("mean")]) for line in lines[1:] if line]
        if lines:
            return max(means, default=float("-inf"))
    with open(path, "w") as f:
        f.write(header + "\n")
    return float("-inf")


def record_scores(outdir: str, values: Sequence[Any]) -> None:
    """Append one row to scores.txt (the file is closed, hence flushed, after each row)."""
    with open(os.path.join(outdir, SCORES_FILE), "a") as f:
        f.write("\t".join(str(v) for v in values) + "\n")


def save_agent(agent: Any, name: Any, outdir: str, logger: logging.Logger, suffix: str = "") -> str:
    """Save ``agent`` to ``outdir/<name><suffix>``; that folder's path."""
    dirname = os.path.join(outdir, f"{name}{suffix}")
    agent.save(dirname)
    logger.info("Saved the agent to %s", dirname)
    return dirname
