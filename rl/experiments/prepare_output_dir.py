"""prepare_output_dir: create a run's output folder and record how the run was started."""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import zlib
from typing import Any

_GIT_FILES = (("git-head.txt", ["rev-parse", "HEAD"]), ("git-status.txt", ["status"]),
              ("git-log.txt", ["log"]), ("git-diff.txt", ["diff", "HEAD"]))


def _git(args: list[str]) -> bytes | None:
    """``git args``'s output in the current folder, or None when git fails or is missing."""
    try:
        result = subprocess.run(["git"] + args, capture_output=True, check=False)
    except OSError:
        return None
    return result.stdout if result.returncode == 0 else None


def is_under_git_control() -> bool:
    """Whether the current folder is inside a git work tree (False without git)."""
    return _git(["rev-parse"]) is not None


def generate_exp_id(prefix: str | None = None, argv: list[str] | None = None) -> str:
    """An experiment id that repeats for the same commit, working-tree diff and command line.

    ``[prefix-]<HEAD commit>-<crc32 of git diff HEAD>-<crc32 of argv>``.

    Raises
    ------
    RuntimeError
        Outside a git work tree with a commit.
    """
    head = _git(["rev-parse", "HEAD"])
    if head is None:
        raise RuntimeError(f"generate_exp_id: {os.getcwd()} is not in a git work tree with a commit")
    argv = sys.argv if argv is None else argv
    names = [] if prefix is None else [prefix]
    names.append(head.decode().strip())
    for source in (_git(["diff", "HEAD"]) or b"", json.dumps(list(argv)).encode()):
        names.append(f"{zlib.crc32(source):08x}")
    return "-".join(names)


def prepare_output_dir(args: Any, basedir: str | None = None, exp_id: str | None = None,
                       argv: list[str] | None = None, time_format: str = "%Y%m%dT%H%M%S.%f",
                       make_backup: bool = True) -> str:
    """Create ``<basedir>/<exp_id>`` and write what describes the run into it.

    Files: ``args.txt`` (``args`` as JSON), ``command.txt`` (``argv`` joined by spaces),
    ``start.txt`` (one timestamp per start, appended), and, inside a git work tree,
    ``git-head.txt``, ``git-status.txt``, ``git-log.txt``, ``git-diff.txt`` (skipped outside
    one). Unlike PFRL, ``environ.txt`` is not written: environment variables often hold
    credentials.

    Parameters
    ----------
    args : dict or argparse.Namespace
        JSON-serializable values.
    basedir : str, optional
        The current folder when None; created if missing.
    exp_id : str, optional
        :func:`generate_exp_id` inside a git work tree, else the current time in ``time_format``.
    argv : list of str, optional
        ``sys.argv`` when None.
    time_format : str
        strftime format of the timestamp.
    make_backup : bool
        If the folder exists, copy it to ``<folder>.<timestamp>.backup`` first.

    Returns
    -------
    str, the path of the folder
    """
    if isinstance(args, argparse.Namespace):
        args = vars(args)
    try:
        args_text = json.dumps(args)
    except TypeError as e:
        raise TypeError(f"prepare_output_dir: args cannot be written as JSON ({e})") from e
    argv = sys.argv if argv is None else argv
    timestamp = datetime.datetime.now().strftime(time_format)
    in_git = is_under_git_control()
    if exp_id is None:
        exp_id = generate_exp_id(argv=argv) if in_git and _git(["rev-parse", "HEAD"]) else timestamp
    outdir = os.path.join(basedir or ".", exp_id)
    if make_backup and os.path.exists(outdir):
        shutil.copytree(outdir, f"{outdir}.{timestamp}.backup")
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "start.txt"), "a") as f:
        f.write(datetime.datetime.now().strftime("%Y%m%dT%H%M%S.%f") + "\n")
    with open(os.path.join(outdir, "args.txt"), "w") as f:
        f.write(args_text)
    with open(os.path.join(outdir, "command.txt"), "w") as f:
        f.write(" ".join(argv))
    if in_git:
        for filename, git_args in _GIT_FILES:
            output = _git(git_args)
            if output is not None:
                with open(os.path.join(outdir, filename), "wb") as f:
                    f.write(output)
    return outdir
