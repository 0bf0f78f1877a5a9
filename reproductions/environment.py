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


def git_commit(root: str = REPO_ROOT) -> str:
    """The commit the code in ``root`` is at: HEAD's hash, with ``+dirty`` when the tree differs from it.

    The tree is dirty when a tracked file is modified or when an untracked, not ignored ``.py``
    file exists (a new reproduction module the commit does not hold); other untracked files
    (results, logs) do not count. ``'unknown'`` outside git.
    """
    def git(*args):
        return subprocess.run(["git", "-C", root, *args], capture_output=True, text=True,
                              timeout=30, check=True).stdout.strip()
    try:
        commit = git("rev-parse", "HEAD")
        modified = git("status", "--porcelain", "--untracked-files=no")
        untracked = git("ls-files", "--others", "--exclude-standard", "--", "*.py")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return commit + ("+dirty" if modified or untracked else "")


def is_clean(commit: str) -> bool:
    """Whether ``commit`` (from :func:`git_commit`) names a commit that holds exactly the code that ran."""
    return commit != "unknown" and not commit.endswith("+dirty")


def describe() -> dict:
    """``{'hardware': {...}, 'kusari_version', 'date'}`` for a result file (the commit is taken apart,
    when a run starts)."""
    return {
        "hardware": {"cpu": cpu_model(), "cores": cpu_cores(), "device": "cpu"},
        "kusari_version": kusari.__version__,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
