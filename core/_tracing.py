"""The trace hook: where framework code finds the static_graph trace being recorded (internal use).

``static_graph`` records a call between ``trace_hook.start(trace)`` and ``trace_hook.stop()``.
Framework entry points with effects a replay must repeat (``Link.cleargrads``,
``Optimizer.update``, backward) ask ``trace_hook.current()`` and, when a trace is recording, let
it record them. This module imports nothing from kusari, so any module can use it.
"""
import threading


class TraceHook:
    """The traces being recorded, one per thread at most.

    ``current()`` is how framework code finds the trace. ``on_apply`` is read by
    ``FunctionNode.apply`` on every op: None while no thread records, so that the common case
    costs one attribute read and no thread-local lookup; else a function called as
    ``on_apply(node, input_variables, input_arrays)`` in place of ``node.forward(input_arrays)``.
    """

    __slots__ = ("on_apply", "_local", "_lock", "_n_recording")

    def __init__(self):
        self.on_apply = None
        self._local = threading.local()
        self._lock = threading.Lock()
        self._n_recording = 0

    def start(self, trace) -> None:
        """Make ``trace`` this thread's recording trace (it must have ``paused`` and ``record_op``)."""
        with self._lock:
            self._n_recording += 1
            self.on_apply = self._record_apply
        self._local.trace = trace

    def stop(self) -> None:
        """End this thread's recording (also after a failing trace)."""
        self._local.trace = None
        with self._lock:
            self._n_recording -= 1
            if not self._n_recording:
                self.on_apply = None

    def current(self, include_paused: bool = False):
        """This thread's recording trace, or None (also while it is paused, unless ``include_paused``)."""
        if self.on_apply is None:   # no thread records: no thread-local lookup
            return None
        trace = getattr(self._local, "trace", None)
        if trace is None or (trace.paused and not include_paused):
            return None
        return trace

    def _record_apply(self, node, xs, in_data):
        trace = self.current()
        if trace is None:   # another thread is tracing, or this trace is paused
            return node.forward(in_data)
        return trace.record_op(node, xs, in_data)


trace_hook = TraceHook()
