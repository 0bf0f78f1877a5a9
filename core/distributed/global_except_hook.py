"""Abort the whole MPI job when any rank has an uncaught exception, so that no rank waits forever.

Without this, a rank that dies of an exception leaves the others blocked in their next collective.
:func:`kusari.distributed.create_communicator` installs the hook when the job has more than one rank
(``sys.excepthook`` for the main thread, ``threading.excepthook`` for the others): it prints the rank
and the traceback on stderr, then calls ``MPI.COMM_WORLD.Abort(1)``, which ends every rank.
Turn it off with the environment variable ``KUSARI_DISTRIBUTED_ABORT_ON_EXCEPTION=0``, with
``create_communicator(..., abort_on_exception=False)`` or by calling :func:`remove_hook`.
"""
import os
import sys
import threading
import traceback

ENVIRONMENT_VARIABLE = "KUSARI_DISTRIBUTED_ABORT_ON_EXCEPTION"
_previous = None  # (sys.excepthook, threading.excepthook) while installed


def _abort(where, exc_type, exc_value, exc_tb):
    try:
        from mpi4py import MPI
        world = MPI.COMM_WORLD
        print(f"kusari.distributed: uncaught {exc_type.__name__} in {where} of rank {world.rank} "
              f"(of {world.size}); aborting the whole job with MPI.COMM_WORLD.Abort(1)",
              file=sys.stderr, flush=True)
        traceback.print_exception(exc_type, exc_value, exc_tb, file=sys.stderr)
        sys.stderr.flush()
    finally:
        MPI.COMM_WORLD.Abort(1)


def _main_hook(exc_type, exc_value, exc_tb):
    if issubclass(exc_type, SystemExit) or _previous is None:
        return sys.__excepthook__(exc_type, exc_value, exc_tb)
    _abort("the main thread", exc_type, exc_value, exc_tb)


def _thread_hook(args):
    if issubclass(args.exc_type, SystemExit) or _previous is None:
        return threading.__excepthook__(args)
    name = args.thread.name if args.thread is not None else "a thread"
    _abort(f"thread {name!r}", args.exc_type, args.exc_value, args.exc_traceback)


def add_hook() -> None:
    """Install the abort-on-exception hooks (idempotent)."""
    global _previous
    if _previous is None:
        _previous = (sys.excepthook, threading.excepthook)
        sys.excepthook = _main_hook
        threading.excepthook = _thread_hook


def remove_hook() -> None:
    """Restore the hooks that were in place before :func:`add_hook`."""
    global _previous
    if _previous is not None:
        sys.excepthook, threading.excepthook = _previous
        _previous = None


def enabled_by_environment() -> bool:
    """False when ``KUSARI_DISTRIBUTED_ABORT_ON_EXCEPTION`` is ``0``, ``false`` or ``no``."""
    return os.environ.get(ENVIRONMENT_VARIABLE, "1").strip().lower() not in ("0", "false", "no", "off")
