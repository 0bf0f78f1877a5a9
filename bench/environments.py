"""The peers' virtual environments under the cache directory (``$KUSARI_BENCH_CACHE``, default
``~/.cache/kusari-bench``): built once, on first use, and reused while their recipe is unchanged.

kusari itself runs in the current interpreter's environment.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

CACHE_VARIABLE = "KUSARI_BENCH_CACHE"
READY_MARKER = "kusari-bench-ready"
INSTALL_TIMEOUT_S = 3600


class EnvironmentUnavailable(RuntimeError):
    """A framework's environment could not be found or built; the message says which step failed."""


@dataclass(frozen=True)
class Recipe:
    """How to build a peer's environment: a venv from ``python``, then each ``pip install`` step in order."""

    python: str
    pip_steps: tuple[tuple[str, ...], ...]
    probe: str

    def fingerprint(self) -> str:
        return hashlib.sha256(repr(self).encode()).hexdigest()


RECIPES = {
    "torch": Recipe(python="python3.11", pip_steps=(("torch==2.13.0",),), probe="import torch"),
    # Chainer 7.8.1's setup.py needs an old setuptools and builds against the NumPy already installed.
    "chainer": Recipe(python="python3.11",
                      pip_steps=(("setuptools<70", "wheel", "numpy==1.23.5"),
                                 ("--no-build-isolation", "chainer==7.8.1")),
                      probe="import chainer"),
    # torchvision for the vision workloads: PyPI's torchvision wheels are built against PyPI's CUDA torch (they do
    # not load next to the CPU build above), which runs on a CPU as well; a matching pair, about 6 GB installed
    "torchvision": Recipe(python="python3.11", pip_steps=(("torch==2.14.1", "torchvision==0.29.1"),),
                          probe="import torch, torchvision; torchvision.ops.nms(torch.zeros(1, 4), torch.zeros(1), 0.5)"),
    # the RL peers share one environment: Stable-Baselines3 and PFRL 0.4.0 on torch CPU. PFRL imports
    # the old gym at import time (its wrappers), so gym comes too; the benchmarks drive gymnasium envs.
    "rl-peers": Recipe(python="python3.11",
                       pip_steps=(("torch==2.13.0",),
                                  ("stable-baselines3==2.9.2", "gymnasium>=1.0"),
                                  ("pfrl==0.4.0", "gym==0.26.2", "packaging")),
                       probe="import stable_baselines3, pfrl"),
    # Chainer Chemistry 0.7.1 on Chainer 7.8.1 (built as in the "chainer" recipe). Its own dependency list is
    # unpinned and names the obsolete `typing` backport, so it is installed with --no-deps after its real
    # dependencies, pinned to the newest releases that still work with NumPy 1.23.5 on Python 3.11.
    # tools/make_chemistry_fixture.py writes the chem parity fixtures in this environment too.
    "chainer-chemistry": Recipe(python="python3.11",
                                pip_steps=(("setuptools<70", "wheel", "numpy==1.23.5"),
                                           ("--no-build-isolation", "chainer==7.8.1"),
                                           ("numpy==1.23.5", "joblib==1.6.0", "pandas==2.0.3", "scikit-learn==1.3.2",
                                            "scipy==1.11.4", "tqdm==4.70.1", "matplotlib==3.8.4", "rdkit==2026.3.6"),
                                           ("--no-deps", "chainer-chemistry==0.7.1")),
                                probe="import chainer, rdkit, sklearn; import chainer_chemistry"),
    # chemprop 2.3.1 (its `chemprop` command) on torch CPU, with the RDKit kusari.chem pins, so both
    # sides featurize with the same RDKit; lightning pinned to the release it was first built with
    "chemprop": Recipe(python="python3.11",
                       pip_steps=(("torch==2.13.0",),
                                  ("chemprop==2.3.1", "rdkit==2026.3.6", "lightning==2.6.6")),
                       probe="import chemprop, lightning, rdkit"),
}


def cache_dir() -> Path:
    """The cache directory: ``$KUSARI_BENCH_CACHE`` or ``~/.cache/kusari-bench``."""
    return Path(os.environ.get(CACHE_VARIABLE) or Path.home() / ".cache" / "kusari-bench")


def _env_python(env: Path) -> Path:
    return env / "bin" / "python"


def _run(command: list[str], log: Path, what: str) -> None:
    with open(log, "a") as stream:
        stream.write(f"$ {' '.join(command)}\n")
        stream.flush()
        try:
            done = subprocess.run(command, stdout=stream, stderr=subprocess.STDOUT, timeout=INSTALL_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise EnvironmentUnavailable(f"{what} failed ({error}); see {log}") from error
    if done.returncode != 0:
        raise EnvironmentUnavailable(f"{what} exited with code {done.returncode}; see {log}")


def ensure(framework: str, *, log: Callable[[str], None] = print) -> str:
    """The Python interpreter that runs ``framework``, building its environment first if needed.

    Raises :class:`EnvironmentUnavailable` if the base interpreter is missing or a step fails.
    """
    if framework == "kusari":
        return sys.executable
    if framework not in RECIPES:
        raise ValueError(f"bench.environments.ensure: unknown framework {framework!r}; "
                         f"known: kusari, {', '.join(RECIPES)}")
    recipe = RECIPES[framework]
    env = cache_dir() / "envs" / framework
    marker = env / READY_MARKER
    if marker.is_file() and marker.read_text() == recipe.fingerprint() and _env_python(env).exists():
        return str(_env_python(env))
    base = shutil.which(recipe.python)
    if base is None:
        raise EnvironmentUnavailable(f"{framework}: {recipe.python} was not found on PATH")
    env.parent.mkdir(parents=True, exist_ok=True)
    install_log = env.parent / f"{framework}-install.log"
    log(f"bench: building the {framework} environment in {env} (log: {install_log})")
    _run([base, "-m", "venv", str(env)], install_log, f"{framework}: creating the venv")
    for step in recipe.pip_steps:
        _run([str(_env_python(env)), "-m", "pip", "install", "-q", *step], install_log,
             f"{framework}: pip install {' '.join(step)}")
    _run([str(_env_python(env)), "-c", recipe.probe], install_log, f"{framework}: {recipe.probe!r}")
    marker.write_text(recipe.fingerprint())
    return str(_env_python(env))
