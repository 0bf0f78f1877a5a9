"""ChainerUI's client habits (``init``, ``log``, ``log_reporter``) for hand-written training loops.

ChainerUI's client posted each entry to the server over HTTP. Ours writes the run folder the dashboard
crawls (a ``log`` in LogReport's format, ``args`` as ``save_args`` writes it), so a loop needs no
server running, no network, and loses nothing while the dashboard is down.
"""
import datetime
import json
import numbers
import os

from kusari.ui.args import save_args
from kusari.ui.crawler import LOG_FILE
from kusari.utils.atomic_write import open_for_write


class _Run:
    __slots__ = ("out", "entries")

    def __init__(self, out: str, entries: list):
        self.out, self.entries = out, entries


_run = None


def _project_path() -> str:
    return os.path.abspath(os.environ.get("KUSARI_UI_PROJECT_PATH") or os.environ.get("CHAINERUI_PROJECT_PATH")
                           or os.getcwd())


def init(project_path: str | None = None, result_name: str | None = None, overwrite_result: bool = False,
         args=None) -> str:
    """Start a run: a folder ``<project_path>/<result_name>-<start time>`` (without the time when
    ``overwrite_result``, which continues that folder's log). Returns the folder.

    ``project_path`` defaults to ``KUSARI_UI_PROJECT_PATH``, then ChainerUI's ``CHAINERUI_PROJECT_PATH``,
    then the working folder; ``args`` (a Namespace or dict), when given, is saved with ``save_args``.
    """
    global _run
    project_path = os.path.abspath(project_path) if project_path else _project_path()
    name = result_name or os.environ.get("CHAINERUI_RESULT_NAME") or "run"
    if not overwrite_result:
        name += "-" + datetime.datetime.now().strftime("%Y%m%d-%H%M%S.%f")
    out = os.path.join(project_path, name)
    os.makedirs(out, exist_ok=True)
    entries = []
    if overwrite_result and os.path.exists(os.path.join(out, LOG_FILE)):
        with open(os.path.join(out, LOG_FILE)) as f:
            entries = json.load(f)
    _run = _Run(out, entries)
    if args is not None:
        save_args(args, out)
    return out


def _number(key: str, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        if hasattr(value, "item") and getattr(value, "size", None) == 1:   # NumPy or CuPy scalar
            value = value.item()
        else:
            raise TypeError(f"log: value {key!r} must be a real number, got {type(value).__name__}")
    return int(value) if isinstance(value, numbers.Integral) else float(value)


def log(value: dict) -> None:
    """Append one entry (``{"main/loss": 0.3, "iteration": 100, ...}``) to the run's log, rewritten atomically."""
    if _run is None:
        raise RuntimeError("log: call kusari.ui.init() first")
    if not isinstance(value, dict):
        raise TypeError(f"log: value must be a dict of numbers, got {type(value).__name__}")
    _run.entries.append({str(k): _number(str(k), v) for k, v in value.items()})
    with open_for_write(os.path.join(_run.out, LOG_FILE)) as f:
        f.write(json.dumps(_run.entries, indent=4).encode("utf-8"))


def log_reporter():
    """A ``postprocess`` for ``LogReport`` that also writes each entry to the run :func:`init` started."""
    def postprocess(stats: dict) -> None:
        log(stats)
    return postprocess
