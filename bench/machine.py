"""What the numbers were measured on: CPU, cores, memory, OS, date and the repository's commit."""
from __future__ import annotations

import datetime
import os
import platform
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def _proc_field(path: str, field: str) -> str | None:
    """The value of the first ``field : value`` line of a /proc file, or None."""
    try:
        with open(path) as stream:
            for line in stream:
                key, sep, value = line.partition(":")
                if sep and key.strip() == field:
                    return value.strip()
    except OSError:
        return None
    return None


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def commit() -> str:
    """The checked-out commit, with '+dirty' when the work tree has changes; 'unknown' outside git."""
    head = _git("rev-parse", "--short=12", "HEAD")
    if head is None:
        return "unknown"
    return head + ("+dirty" if _git("status", "--porcelain", "--untracked-files=no") else "")


# What OpenBLAS's SkylakeX kernels need; CPUs with all of them run AVX-512 GEMMs.
AVX512_FLAGS = ("avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl")
_PROBE = "from bench.worker import openblas_core; import numpy; print(openblas_core())"


def cpu_flags() -> set[str]:
    return set((_proc_field("/proc/cpuinfo", "flags") or "").split())


def effective_openblas_core(python: str) -> str:
    """The kernels the OpenBLAS of ``python``'s NumPy runs in this environment ('Haswell', 'SkylakeX', ...)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    try:
        done = subprocess.run([python, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return done.stdout.strip() or "unknown"


_AVX2_OR_OLDER = ("haswell", "zen", "sandybridge", "excavator", "steamroller", "piledriver", "barcelona",
                  "nehalem", "prescott", "core2")


def openblas_override(pythons: list[str]) -> tuple[dict[str, str], str]:
    """``OPENBLAS_CORETYPE=SkylakeX`` when this CPU has AVX-512 but the OpenBLAS of one of
    ``pythons`` (the NumPy-based frameworks' interpreters) would run AVX2 kernels, and why.

    OpenBLAS runs the kernels ``OPENBLAS_CORETYPE`` names, else the ones it picks from the CPU
    model. Either can leave an AVX-512 CPU on AVX2 kernels (an environment pinned to 'Haswell',
    or an OpenBLAS too old to know the model), while PyTorch's oneDNN and MKL use AVX-512 there.
    Returns ``({}, reason)`` when nothing needs changing.
    """
    pinned = os.environ.get("OPENBLAS_CORETYPE")
    source = f"OPENBLAS_CORETYPE={pinned} in the environment" if pinned else "OpenBLAS's own choice"
    current = [effective_openblas_core(python) for python in pythons]
    found = ", ".join(sorted(set(current))) or "none probed"
    if not set(AVX512_FLAGS) <= cpu_flags():
        return {}, f"OpenBLAS kernels {found} ({source}); the CPU has no AVX-512"
    if any(core.lower() in _AVX2_OR_OLDER for core in current):
        return ({"OPENBLAS_CORETYPE": "SkylakeX"},
                f"OpenBLAS would run {found} kernels ({source}) on this AVX-512 CPU; NumPy-based workers "
                f"run with OPENBLAS_CORETYPE=SkylakeX so that every framework uses AVX-512")
    return {}, f"OpenBLAS kernels {found} ({source})"


def describe() -> dict[str, str]:
    """The machine's description, as label -> text."""
    return {
        "CPU": _proc_field("/proc/cpuinfo", "model name") or platform.processor() or "unknown",
        "logical cores": str(os.cpu_count()),
        "memory": _proc_field("/proc/meminfo", "MemTotal") or "unknown",
        "OS": platform.platform(),
        "date (UTC)": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
        "commit": commit(),
    }
