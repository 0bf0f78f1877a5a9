"""Where framework calls find the static_graph trace being recorded on this thread.

``static_graph`` sets ``local.trace`` while it records a call. Framework entry points with
effects a replay must repeat (``Link.cleargrads``, ``Optimizer.update``, backward) ask
:func:`current` and, when a trace is recording, let it record them. This module imports nothing
from kusari, so any module can use it.
"""
import threading

local = threading.local()   # .trace: the trace being recorded on this thread, or None


def current():
    """The trace recording on this thread, or None (also while the trace is paused)."""
    trace = getattr(local, "trace", None)
    if trace is None or trace.paused:
        return None
    return trace
