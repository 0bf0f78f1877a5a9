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
