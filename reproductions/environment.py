"""Facts about where a run happened: CPU model and cores, kusari version, git commit, date."""
import datetime
import os
import platform
import subprocess

import kusari

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_model() -> str:
    """The CPU's marketing name (from /proc/cpuinfo on Linux), else ``platform.processor()``."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def cpu_cores() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def git_commit() -> str:
    """HEAD's commit hash, with ``+dirty`` when tracked files differ from it; ``'unknown'`` outside git."""
    def git(*args):
        return subprocess.run(["git", "-C", REPO_ROOT, *args], capture_output=True, text=True,
                              timeout=30, check=True).stdout.strip()
    try:
        commit = git("rev-parse", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return commit + ("+dirty" if dirty else "")


def describe() -> dict:
    """``{'hardware': {...}, 'kusari_version', 'git_commit', 'date'}`` for a result file."""
    return {
        "hardware": {"cpu": cpu_model(), "cores": cpu_cores(), "device": "cpu"},
        "kusari_version": kusari.__version__,
        "git_commit": git_commit(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
