"""CUDA-graph replay of a static_graph schedule: its device steps captured once through CuPy's stream capture, then launched.

A replay runs each recorded op from Python; on a GPU every op costs microseconds of Python and one
or more kernel launches, which is most of a small model's step. ``static_graph(cuda_graph=True)``
captures the ops of a replay into CUDA graphs (``cupy.cuda.Stream.begin_capture``/``end_capture``)
and later calls launch them: one launch per graph, no Python per op.

A schedule's steps are split into *segments*. A run of recorded ops, ending at most at a recorded
backward (its array part: the leaves' gradients), is a device segment: one CUDA graph. Everything
else runs as Python at every call, between the launches: ``static_code`` and ``report`` calls,
``cleargrads``, the optimizer's update, and handing the gradients to the parameters; so a learning
rate changed by an extension, Adam's step count, dynamic loss scaling and fresh ``static_code``
draws stay live.

The life of one signature: its trace (eager), one warm-up replay (plain, on the capture stream with
a private memory pool, so kernels are compiled and the pool holds blocks of the sizes the capture
asks for), one capturing replay (each device segment captured, then launched), then launches. A
graph reads and writes fixed addresses, so before each launch:

- the arrays a segment reads from outside the graphs (the call's inputs, arrays made by host
  steps) are copied into the graph's own buffers; their shape, dtype and device must match;
- every parameter array it reads must still be the array captured (optimizers update in place;
  ``copyparams`` or a device move replace it), and each backward's loss scale the captured one.

A failed check makes this call finish as a plain replay and the next call capture anew; after
``MAX_THRASH`` recaptures in a row, each fewer than ``MIN_LAUNCHES`` launches after the one
before, the signature replays without CUDA graphs. Results and values read by host steps are
copied out of the graph's buffers (a result the caller keeps is not overwritten by the next
launch); the gradients given to the parameters are the graph's buffers, rewritten by each step.

What a capture cannot take (a synchronizing call such as ``.get()`` or ``float()`` of a device
value, a copy from host memory, an op drawing random numbers inside its forward, an op on host
arrays) makes the call finish as a plain replay and the signature replay without CUDA graphs from
then on, with one warning, or raises a RuntimeError where it is found when
``config.static_graph_strict`` is set.

The CuPy side is one small class, :class:`CupyBackend`; the decisions above are in
:class:`CudaGraphReplay`, which tests drive on the CPU through a stand-in backend.
"""
from __future__ import annotations

import contextlib

from kusari import backend as _backend
from kusari._static_codegen import compile_forward
from kusari._static_steps import (ArraySlot, BackwardStep, CallStep, CodeStep, Mapping, OpStep, Seq,
                                  VariableSlot)
from kusari.variable import Variable

MAX_THRASH = 4       # recaptures in a row before giving up
MIN_LAUNCHES = 4     # a recapture after fewer launches than this counts towards MAX_THRASH

# Ops that draw random numbers inside their forward: a graph would replay the captured draws.
RANDOM_OPS = frozenset({
    ("kusari.functions.noise.dropout", "Dropout"),
    ("kusari.functions.noise.gaussian", "Gaussian"),
    ("kusari.functions.noise.zoneout", "Zoneout"),
    ("kusari.functions.noise.simplified_dropconnect", "SimplifiedDropconnect"),
    ("kusari.functions.activation.rrelu", "RReLU"),
})


class CupyBackend:
    """The CuPy side of a CUDA-graph replay: a capture stream, a private memory pool, capture and launch.

    Warm-up and capture run on a non-blocking side stream (CUDA cannot capture the legacy default
    stream), ordered after and before the current stream's work by events, with allocations from
    a private pool: blocks freed during the capture stay in that pool, which nothing else allocates
    from, so no array outside the graph ever shares the graph's memory. Graphs launch on the
    current stream, in order with the copies and host steps around them.
    """

    def __init__(self, cupy):
        self.cupy = cupy
        self.stream = cupy.cuda.Stream(non_blocking=True)
        self.reset()

    def reset(self) -> None:
        """Forget the memory of earlier captures (a fresh private pool)."""
        self.pool = self.cupy.cuda.MemoryPool()

    def is_device(self, array) -> bool:
        return isinstance(array, self.cupy.ndarray)

    @contextlib.contextmanager
    def _side_stream(self):
        cuda = self.cupy.cuda
        current = cuda.get_current_stream()
        self.stream.wait_event(current.record())
        with self.stream, cuda.using_allocator(self.pool.malloc):
            yield
        current.wait_event(self.stream.record())

    def run(self, func, *args) -> None:
        """``func(*args)`` executed on the side stream with the private pool (the warm-up)."""
        with self._side_stream():
            func(*args)

    def capture(self, func, *args):
        """The kernels ``func(*args)`` issues, as a ``cupy.cuda.graph.Graph`` (not executed)."""
        with self._side_stream():
            self.stream.begin_capture()
            try:
                func(*args)
            except BaseException:
                try:
                    self.stream.end_capture()   # leave the stream out of capture mode
                except Exception:
                    pass                        # an invalidated capture reports its own error
                raise
            return self.stream.end_capture()

    def launch(self, graph) -> None:
        graph.launch()


def cupy_backend_for(arrays):
    """A :class:`CupyBackend` when any of ``arrays`` is a CuPy array, else None (NumPy work)."""
    for a in arrays:
        if _backend.is_gpu_array(a):
            return CupyBackend(_backend.get_array_module(a))
    return None


def _template_slots(template, out: set) -> set:
    """The slots a template (``_static_steps``) reads, added to ``out``."""
    kind = type(template)
    if kind is ArraySlot or kind is VariableSlot:
        out.add(template.slot)
    elif kind is Seq:
        for t in template.items:
            _template_slots(t, out)
    elif kind is Mapping:
        for _, t in template.items:
            _template_slots(t, out)
    return out


class _BackwardCompute:
    """The array part of a BackwardStep, run inside a device segment: the leaves' gradients into
    ``vals[base:base + n]`` (slots after the schedule's own)."""

    __slots__ = ("step", "base", "n")

    def __init__(self, step, base, n):
        self.step, self.base, self.n = step, base, n

    def run(self, schedule, vals, inputs) -> None:
        vals[self.base:self.base + self.n] = self.step.gradients(schedule, vals, None, self.step.scale())


class _BackwardDeliver:
    """The host part of a BackwardStep: the gradients of ``vals[base:base + n]`` into the leaves' ``grad``."""

    __slots__ = ("step", "base", "n")

    def __init__(self, step, base, n):
        self.step, self.base, self.n = step, base, n

    def run(self, schedule, vals, inputs) -> None:
        step = self.step
        step.deliver(schedule.leaves(inputs), vals[self.base:self.base + self.n], step.scale())


class _Segment:
    """A run of steps compiled into one function; for a device segment, what its graph reads and writes."""

    def __init__(self, name, steps, device):
        self.steps = steps
        self.device = device
        self.run = compile_forward(name, steps)
        self.reads, self.writes, self.backwards, self.grad_slots = set(), set(), [], ()
        for step in steps:
            if type(step) is OpStep:
                self.reads.update(step.in_slots)
                self.writes.update(step.out_slots)
            elif type(step) is _BackwardCompute:
                self.backwards.append(step.step)
                self.reads.update([t for t in step.step.targets if t is not None])
                for seed in step.step.seeds:
                    if seed is not None:
                        _template_slots(seed, self.reads)
                self.writes.update(range(step.base, step.base + step.n))
                self.grad_slots = tuple(range(step.base, step.base + step.n))
        self.copy_in = ()       # slots read from outside the graphs: copied into the graph's buffers
        self.copy_now = ()      # those of copy_in no earlier graph of the call copies
        self.exports = ()       # slots written here that host steps or the result read: copied out
        self.forget()

    def forget(self) -> None:
        """Drop the captured graph and everything it holds."""
        self.graph = None
        self.buffers = {}       # slot -> the graph's buffer, for copy_in
        self.params = ()        # (slot, Variable, array captured): the parameters it reads
        self.scales = ()        # loss scale of each backward, at capture
        self.out = ()           # (slot, buffer) for exports and grad_slots
        self.keep = None        # every array of the capturing call, alive with the graph


# Link methods a recorded call may be moved ahead of the ops before it: they only reset gradients,
# which no op reads, and ``loss = f(x); model.cleargrads(); loss.backward()`` then needs one graph.
_GRADIENT_RESETS = frozenset({"cleargrads", "zerograds"})


def _split(schedule):
    """The schedule's steps as segments, and the number of gradient slots added; or a reason they cannot be captured."""
    items = []                  # (on the device, step), in the order they run
    base = schedule.n_slots
    n_leaves = len(schedule.leaf_sources)
    for step in schedule.steps:
        kind = type(step)
        if kind is OpStep:
            cls = type(step.node)
            if (cls.__module__, cls.__qualname__) in RANDOM_OPS:
                return None, 0, (f"{cls.__qualname__} draws random numbers inside its forward, and a CUDA "
                                 "graph would replay the captured draws")
            items.append((True, step))
        elif kind is BackwardStep:
            if any(t is not None and t < 0 for t in step.targets):
                return None, 0, "its backward starts at an input or a parameter, outside the recorded ops"
            items += [(True, _BackwardCompute(step, base, n_leaves)), (False, _BackwardDeliver(step, base, n_leaves))]
            base += n_leaves
        else:
            method = step.method() if kind is CallStep else None
            at = len(items)
            if getattr(method, "__name__", None) in _GRADIENT_RESETS:
                while at and type(items[at - 1][1]) is OpStep:
                    at -= 1
            items.insert(at, (False, step))
    segments, run = [], []
    for i, (device, step) in enumerate(items):
        run.append(step)
        last = i + 1 == len(items)
        if last or items[i + 1][0] != device or type(step) is _BackwardCompute:
            segments.append(_Segment(schedule.name, run, device))
            run = []
    if not any(s.device for s in segments):
        return None, 0, "it records no op"
    _plan_copies(schedule, segments)
    return segments, base - schedule.n_slots, None


def _plan_copies(schedule, segments) -> None:
    """Each device segment's ``copy_in`` (slots made outside the graphs that it reads) and
    ``exports`` (slots it writes that a later host step or the result reads)."""
    outside = set(schedule.input_slots)
    for seg in segments:
        if not seg.device:
            for step in seg.steps:
                if type(step) is CodeStep:
                    outside |= _template_slots(step.out_template, set())
    result = _template_slots(schedule.out_template, set(schedule.out_slots))
    copied = set()              # slots an earlier graph of the call has copied in already
    for i, seg in enumerate(segments):
        if not seg.device:
            continue
        seg.copy_in = tuple(sorted(seg.reads & outside))
        seg.copy_now = tuple([k for k in seg.copy_in if k not in copied])
        copied.update(seg.copy_in)
        read_later = set(result)
        for later in segments[i + 1:]:
            if not later.device:
                for step in later.steps:
                    if type(step) is CodeStep:
                        _template_slots(step.args, read_later)
                        _template_slots(step.kwargs, read_later)
        seg.exports = tuple(sorted(seg.writes & read_later - set(seg.grad_slots)))


class _Stale(Exception):
    """A launch's check failed: the captured graph does not fit this call."""


class CudaGraphReplay:
    """Replays a :class:`~kusari._static_replay.Schedule` through CUDA graphs (see the module docstring).

    Parameters
    ----------
    schedule : Schedule
        A finished trace; its plain ``replay`` is the fallback.
    backend : CupyBackend
        Runs, captures and launches (a stand-in in CPU tests).
    segments, n_extra
        From :func:`_split`.
    report : callable
        ``report(message)`` on giving up: warns (once per function) or, under
        ``config.static_graph_strict``, raises a RuntimeError.
    """

    def __init__(self, schedule, backend, segments, n_extra, report):
        self.schedule = schedule
        self.name = schedule.name
        self._backend = backend
        self._segments = segments
        self._n_vals = schedule.n_slots + n_extra
        self._report = report
        self._external_slots = {k: var for k, var in schedule.externals}
        self.state = "warm"        # warm -> capture -> launch; "plain" once given up
        self.captures = 0
        self.launches = 0
        self._since_capture = 0
        self._thrash = 0

    def replay(self, inputs):
        """Run the schedule on ``inputs`` (the call's Variables and arrays); returns the result, as ``Schedule.replay``."""
        schedule = self.schedule
        if self.state == "plain":
            return schedule.replay(inputs)
        vals = [None] * self._n_vals
        for k, x in zip(schedule.input_slots, inputs):
            vals[k] = x._data if isinstance(x, Variable) else x
        for k, var in schedule.externals:
            vals[k] = var._data
        if self.state == "launch":
            self._launch_all(vals, inputs)
        elif self.state == "capture":
            self._capture_all(vals, inputs)
        else:
            self._warm_all(vals, inputs)
        schedule.generation += 1
        return schedule._outputs(inputs, vals)

    # the three kinds of call ---------------------------------------------------------
    def _warm_all(self, vals, inputs) -> None:
        backend, schedule = self._backend, self.schedule
        for seg in self._segments:
            if not seg.device:
                seg.run(schedule, vals, inputs)
                continue
            backend.run(seg.run, schedule, vals, inputs)
            host = [k for k in seg.reads | seg.writes if vals[k] is not None and not backend.is_device(vals[k])]
            if host and self.state != "plain":
                self._give_up(f"an op of it works on host arrays (slot {min(host)}: "
                              f"{type(vals[min(host)]).__name__}), which a CUDA graph would not rerun")
        if self.state == "warm":
            self.state = "capture"

    def _capture_all(self, vals, inputs) -> None:
        backend, schedule = self._backend, self.schedule
        self.captures += 1
        self._since_capture = 0
        plain = False
        own, static = {}, {}    # slot -> the graphs' buffer: copied inputs, arrays the graphs write
        for seg in self._segments:
            if not seg.device or plain:
                seg.run(schedule, vals, inputs)
                continue
            seg.forget()
            theirs = [(k, vals[k]) for k in seg.copy_in]
            for k, array in theirs:
                buf = own.get(k)
                if buf is None:
                    buf = own[k] = array.copy(order="K")    # the layout the warm-up saw
                vals[k] = seg.buffers[k] = buf
            for k in seg.reads & static.keys():
                vals[k] = static[k]     # not the copy an earlier segment gave the host steps
            seg.params = tuple([(k, self._external_slots[k], vals[k]) for k in sorted(seg.reads)
                                if k in self._external_slots])
            seg.scales = tuple([step.scale() for step in seg.backwards])
            try:
                seg.graph = backend.capture(seg.run, schedule, vals, inputs)
            except Exception as e:
                self._give_up(f"the capture failed ({type(e).__name__}: {e})")
                plain = True
                seg.run(schedule, vals, inputs)
                continue
            seg.out = tuple([(k, vals[k]) for k in seg.exports + seg.grad_slots])
            seg.keep = tuple(vals)
            static.update([(k, vals[k]) for k in seg.writes])
            for k, array in theirs:     # host steps and the result see the caller's arrays, not buffers
                vals[k] = array
            backend.launch(seg.graph)
            self._copy_out(seg, vals)
        if not plain:
            self.state = "launch"

    def _launch_all(self, vals, inputs) -> None:
        backend, schedule = self._backend, self.schedule
        plain = False
        launched = []
        for seg in self._segments:
            if not seg.device or plain:
                seg.run(schedule, vals, inputs)
                continue
            try:
                self._check(seg, vals)
            except _Stale as why:
                for done in launched:       # what the plain rest may read of the graphs' results
                    for k in done.writes:
                        if vals[k] is None:
                            vals[k] = done.keep[k]
                self._recapture(str(why))
                plain = True
                seg.run(schedule, vals, inputs)
                continue
            launched.append(seg)
            buffers = seg.buffers
            for k in seg.copy_now:
                buffers[k][...] = vals[k]
            backend.launch(seg.graph)
            self._copy_out(seg, vals)
        if not plain:
            self.launches += 1
            self._since_capture += 1

    # helpers ---------------------------------------------------------------------------
    @staticmethod
    def _copy_out(seg, vals) -> None:
        n = len(seg.exports)
        for i, (k, buf) in enumerate(seg.out):
            vals[k] = buf.copy() if i < n else buf

    @staticmethod
    def _check(seg, vals) -> None:
        for k, var, array in seg.params:
            if var._data is not array:
                raise _Stale(f"the array of a parameter it reads ({var.name or 'unnamed'}, shape "
                             f"{array.shape}) was replaced")
        for step, scale in zip(seg.backwards, seg.scales):
            if step.scale() != scale:
                raise _Stale(f"the loss scale changed from {scale} to {step.scale()}")
        for k in seg.copy_now:
            buf, new = seg.buffers[k], vals[k]
            if (type(new) is not type(buf) or new.shape != buf.shape or new.dtype != buf.dtype
                    or new.device != buf.device):
                raise _Stale(f"a value it reads changed from {type(buf).__name__} {buf.shape} {buf.dtype} "
                             f"on {buf.device} to {type(new).__name__} {new.shape} {new.dtype} on {new.device}")

    def _drop(self) -> None:
        for seg in self._segments:
            seg.forget()
        self._backend.reset()

    def _recapture(self, why: str) -> None:
        """A check failed: finish this call plainly and capture anew, or give up when that keeps happening."""
        self._thrash = self._thrash + 1 if self._since_capture < MIN_LAUNCHES else 0
        self._drop()
        if self._thrash >= MAX_THRASH:
            self._give_up(f"it was captured again {self._thrash} times in a row, each after fewer than "
                          f"{MIN_LAUNCHES} launches; last because {why}")
        else:
            self.state = "warm"

    def _give_up(self, why: str) -> None:
        self._drop()
        self.state = "plain"
        self._report(f"static_graph({self.name}, cuda_graph=True): not replayed as a CUDA graph: {why}; "
                     "it replays without CUDA graphs from now on")


def wrap(schedule, inputs, report):
    """``schedule`` replayed through CUDA graphs when its arrays are CuPy arrays, else ``schedule`` itself.

    ``report(message, strict)`` says why not: ``strict`` False for NumPy arrays (the option does not
    apply: a warning only), True for steps a capture cannot take (an error under
    ``config.static_graph_strict``).
    """
    arrays = [x._data if isinstance(x, Variable) else x for x in inputs]
    arrays += [var._data for _, var in schedule.externals]
    backend = cupy_backend_for(arrays)
    if backend is None:
        report(f"static_graph({schedule.name}, cuda_graph=True): its arrays are NumPy arrays and CUDA "
               "graphs capture CuPy work only, so it replays on the CPU as usual", False)
        return schedule
    segments, n_extra, why = _split(schedule)
    if segments is None:
        report(f"static_graph({schedule.name}, cuda_graph=True): not replayed as a CUDA graph: {why}; "
               "it replays without CUDA graphs", True)
        return schedule
    return CudaGraphReplay(schedule, backend, segments, n_extra, lambda message: report(message, True))
