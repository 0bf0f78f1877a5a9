"""Shared memory for asynchronous (Hogwild) training: parameters and optimizer states that processes share.

A3C's worker processes update one set of parameter arrays, and one set of optimizer states, without
locks. The functions here move a Link's parameter arrays and an Optimizer's per-parameter states
(RMSprop's ``ms``, Adam's ``m`` and ``v``, ...) and step counts into ``multiprocessing.RawArray``
blocks, in place: each parameter keeps its shape and dtype, and its values. Processes forked
afterwards see the same memory. A process started otherwise (spawn) receives the returned
RawArrays as arguments of its ``multiprocessing.Process`` and attaches its own, identically built,
link and optimizer to them with :func:`set_shared_params` and :func:`set_shared_states`.

The blocks are anonymous (their file in /dev/shm is unlinked as soon as it is created), so they
leave nothing behind: the memory goes back to the system when the last array using it is gone.
"""
import ctypes
import multiprocessing
import multiprocessing.connection
import signal
import time
import traceback
from collections.abc import Callable
from typing import Any

import kusari
import numpy
from kusari import backend
from kusari.rl.envs.multiprocess_vector_env import _RemoteTraceback

_STOP_GRACE_S = 30.0  # how long the other workers get to stop by themselves after one failed
_STEP_KEY = "t"  # where the step count goes among a parameter's states (UpdateRule.serialize's key)
_HOOK_NAME = "shared_step"


def _shared_copy(array: numpy.ndarray, who: str, name: str) -> tuple[Any, numpy.ndarray]:
    """A RawArray holding ``array``'s bytes, and a view of it with ``array``'s shape and dtype."""
    if not isinstance(array, numpy.ndarray):
        kind = "a GPU array" if backend.is_gpu_array(array) else type(array).__name__
        raise TypeError(f"{who}: {name} is {kind}; only host (NumPy) arrays can be shared between "
                        "processes")
    raw = multiprocessing.RawArray(ctypes.c_byte, max(array.nbytes, 1))
    view = _view(raw, array.shape, array.dtype, who, name)
    view[...] = array
    return raw, view


def _view(raw: Any, shape: tuple, dtype: numpy.dtype, who: str, name: str) -> numpy.ndarray:
    """``raw`` (a RawArray) seen as an array of ``shape`` and ``dtype``."""
    nbytes = int(numpy.prod(shape, dtype=numpy.int64)) * numpy.dtype(dtype).itemsize
    if ctypes.sizeof(raw) != max(nbytes, 1):
        raise ValueError(f"{who}: the shared block for {name} has {ctypes.sizeof(raw)} bytes, but "
                         f"an array of shape {shape} and dtype {numpy.dtype(dtype)} needs {nbytes}")
    return numpy.frombuffer(raw, dtype=dtype, count=nbytes // numpy.dtype(dtype).itemsize).reshape(shape)


def _named_params(link: kusari.Link, who: str) -> list[tuple[str, kusari.Parameter]]:
    if not isinstance(link, kusari.Link):
        raise TypeError(f"{who}: expected a kusari.Link, got {type(link).__name__}")
    params = list(link.namedparams())
    for name, param in params:
        if param.array is None:
            raise ValueError(f"{who}: parameter {name} is not initialized yet (shape unknown); run "
                             "the link once, or give its input size, before sharing it")
    return params


def share_params_as_shared_arrays(link: kusari.Link) -> dict[str, Any]:
    """Move every parameter array of ``link`` into shared memory, in place.

    Parameters
    ----------
    link : kusari.Link
        Its parameters must be initialized and on the host.

    Returns
    -------
    dict mapping each parameter's path (``namedparams``) to its ``multiprocessing.RawArray``; pass
    it to :func:`set_shared_params` in a process started by spawn.
    """
    shared = {}
    for name, param in _named_params(link, "share_params_as_shared_arrays"):
        shared[name], param.array = _shared_copy(param.array, "share_params_as_shared_arrays", name)
    return shared


def set_shared_params(link: kusari.Link, shared_arrays: dict[str, Any]) -> None:
    """Make ``link``'s parameters use the blocks of :func:`share_params_as_shared_arrays`.

    Parameters
    ----------
    link : kusari.Link
        Built like the shared link: each parameter keeps its shape and dtype and takes the
        block's values.
    shared_arrays : dict
        ``{parameter path: RawArray}``.
    """
    who = "set_shared_params"
    params = dict(_named_params(link, who))
    if set(params) != set(shared_arrays):
        raise ValueError(f"{who}: the link's parameters {sorted(params)} differ from the shared "
                         f"ones {sorted(shared_arrays)}")
    for name, param in params.items():
        param.array = _view(shared_arrays[name], param.shape, param.dtype, who, name)


def ensure_initialized_update_rule(param: kusari.Parameter) -> None:
    """Create ``param``'s optimizer state now, as its first update would.

    Workers must share the state before any of them updates, so it is allocated eagerly.
    """
    rule = param.update_rule
    if rule is not None:
        rule.ensure_state(param)


class _SharedStep:
    """An update-rule pre-hook (or optimizer post-hook) that counts steps in a shared cell."""

    def __init__(self, cell: numpy.ndarray):
        self.cell = cell

    def __call__(self, owner: Any, param: Any = None) -> None:
        # a racy increment, as Hogwild's parameter updates are; a lost count only shifts Adam's
        # bias correction slightly
        self.cell[0] += 1
        owner.t = int(self.cell[0])


def _rules(optimizer: Any, who: str) -> list[tuple[str, kusari.Parameter, Any]]:
    if not isinstance(optimizer, kusari.Optimizer) or optimizer.target is None:
        raise TypeError(f"{who}: expected a kusari Optimizer set up on a link (call "
                        f"optimizer.setup(link) first), got {optimizer!r}")
    return [(name, param, param.update_rule)
            for name, param in _named_params(optimizer.target, who) if param.update_rule is not None]


def _use_step_cell(owner: Any, cell: numpy.ndarray, timing: str) -> None:
    """Count ``owner``'s (a rule's or the optimizer's) steps in ``cell`` from now on."""
    try:
        owner.remove_hook(_HOOK_NAME)  # shared again: the new cell replaces the old one
    except KeyError:
        pass
    owner.add_hook(_SharedStep(cell), name=_HOOK_NAME, timing=timing)
    owner.t = int(cell[0])


def share_states_as_shared_arrays(optimizer: Any) -> dict[str, dict[str, Any]]:
    """Move ``optimizer``'s per-parameter states and step counts into shared memory, in place.

    States not created yet are created first (zeros, as at a first update). Each update rule's step
    count ``t`` (Adam's bias correction reads it) and the optimizer's own ``t`` are then counted in
    shared memory by every process. Share after loading a saved optimizer, not before.

    Parameters
    ----------
    optimizer : kusari.Optimizer
        Set up on a link whose parameters are initialized and on the host.

    Returns
    -------
    dict ``{parameter path: {state name: RawArray, 't': RawArray}}``, plus the optimizer's count
    under ``''``; pass it to :func:`set_shared_states` in a process started by spawn.
    """
    who = "share_states_as_shared_arrays"
    shared: dict[str, dict[str, Any]] = {}
    for name, param, rule in _rules(optimizer, who):
        ensure_initialized_update_rule(param)
        blocks = {}
        for key, value in rule.state.items():
            blocks[key], rule.state[key] = _shared_copy(value, who, f"{name} state {key!r}")
        blocks[_STEP_KEY], cell = _shared_copy(numpy.array([rule.t], numpy.int64), who, f"{name} t")
        _use_step_cell(rule, cell, "pre")
        shared[name] = blocks
    raw, cell = _shared_copy(numpy.array([optimizer.t], numpy.int64), who, "the optimizer's t")
    _use_step_cell(optimizer, cell, "post")
    shared[""] = {_STEP_KEY: raw}
    return shared


def set_shared_states(optimizer: Any, shared_arrays: dict[str, dict[str, Any]]) -> None:
    """Make ``optimizer`` use the states and step counts of :func:`share_states_as_shared_arrays`.

    Parameters
    ----------
    optimizer : kusari.Optimizer
        Of the same kind as the shared one, set up on a link built like its link.
    shared_arrays : dict
        What :func:`share_states_as_shared_arrays` returned.
    """
    who = "set_shared_states"
    rules = _rules(optimizer, who)
    if {name for name, _, _ in rules} | {""} != set(shared_arrays):
        raise ValueError(f"{who}: the optimizer's parameters {sorted(n for n, _, _ in rules)} differ "
                         f"from the shared ones {sorted(set(shared_arrays) - {''})}")
    for name, param, rule in rules:
        ensure_initialized_update_rule(param)
        blocks = shared_arrays[name]
        if set(rule.state) | {_STEP_KEY} != set(blocks):
            raise ValueError(f"{who}: parameter {name} has states {sorted(rule.state)}, the shared "
                             f"optimizer {sorted(set(blocks) - {_STEP_KEY})}")
        for key, value in rule.state.items():
            rule.state[key] = _view(blocks[key], value.shape, value.dtype, who, f"{name} state {key!r}")
        _use_step_cell(rule, _view(blocks[_STEP_KEY], (1,), numpy.int64, who, f"{name} t"), "pre")
    _use_step_cell(optimizer, _view(shared_arrays[""][_STEP_KEY], (1,), numpy.int64, who,
                                    "the optimizer's t"), "post")


def share_agent(agent: Any) -> None:
    """Move the Links and Optimizers named in ``agent.shared_attributes`` into shared memory.

    Parameters
    ----------
    agent : kusari.rl.agent.AsyncAgent
        Links first, then optimizers, are shared in place; other attributes are refused.
    """
    values = [(name, getattr(agent, name)) for name in agent.shared_attributes]
    for name, value in values:
        if not isinstance(value, (kusari.Link, kusari.Optimizer)):
            raise TypeError(f"share_agent: {type(agent).__name__}.{name} is a "
                            f"{type(value).__name__}; only Links and Optimizers can be shared")
    for _, value in values:
        if isinstance(value, kusari.Link):
            share_params_as_shared_arrays(value)
    for _, value in values:
        if isinstance(value, kusari.Optimizer):
            share_states_as_shared_arrays(value)


def fork_context() -> multiprocessing.context.BaseContext:
    """The 'fork' multiprocessing context: workers inherit the shared blocks without pickling."""
    if "fork" not in multiprocessing.get_all_start_methods():
        raise OSError("kusari.rl.utils.async_: asynchronous training forks its workers, and this "
                      "platform cannot fork (Windows); share the blocks with set_shared_params / "
                      "set_shared_states in spawned processes instead")
    return multiprocessing.get_context("fork")


def _worker(run_func: Callable[[int], Any], process_idx: int, conn: Any) -> None:
    try:
        result = run_func(process_idx)
        conn.send(("ok", result))
    except BaseException as e:  # noqa: BLE001 (every failure goes back to the parent)
        conn.send(("error", (type(e).__name__, str(e), traceback.format_exc())))
    finally:
        conn.close()


def _death_cause(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        return f"killed by signal {signal.Signals(-exitcode).name}"
    return f"exit code {exitcode}"


def run_async(n_process: int, run_func: Callable[[int], Any], stop_event: Any = None) -> list[Any]:
    """Run ``run_func(process_idx)`` in ``n_process`` forked processes; their return values.

    The processes inherit everything by fork (the shared blocks included), so ``run_func`` may be
    a closure. When one raises or dies (killed, ``os._exit``), ``stop_event`` is set so that the
    others can stop by themselves; those still running after a grace period are terminated, and
    a RuntimeError names the process and the cause.

    Parameters
    ----------
    n_process : int
    run_func : callable ``(process_idx) -> picklable value``
    stop_event : multiprocessing.Event, optional
        Set when a process fails (the workers should watch it).

    Returns
    -------
    list of ``run_func``'s return values, by process index.
    """
    if isinstance(n_process, bool) or not isinstance(n_process, int) or n_process < 1:
        raise ValueError(f"run_async: n_process must be an int >= 1, got {n_process!r}")
    ctx = fork_context()
    conns, procs = [], []
    try:
        for process_idx in range(n_process):
            receiver, sender = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_worker, args=(run_func, process_idx, sender), daemon=True)
            proc.start()
            sender.close()  # the child's end: EOF reaches the parent when the child is gone
            conns.append(receiver)
            procs.append(proc)
        results: dict[int, Any] = {}
        failure = None
        deadline = None
        while len(results) < n_process:
            waiting = [i for i in range(n_process) if i not in results]
            timeout = None if deadline is None else max(deadline - time.monotonic(), 0)
            ready = multiprocessing.connection.wait([conns[i] for i in waiting], timeout)
            if not ready:
                break  # the grace period is over
            for i in waiting:
                if conns[i] not in ready:
                    continue
                try:
                    status, payload = conns[i].recv()
                except EOFError:
                    procs[i].join()
                    status, payload = "died", _death_cause(procs[i].exitcode)
                results[i] = payload
                if status != "ok" and failure is None:
                    failure = (i, status, payload)
                    if stop_event is not None:
                        stop_event.set()
                    deadline = time.monotonic() + _STOP_GRACE_S
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
            proc.join()
        for conn in conns:
            conn.close()
    if failure is not None:
        i, status, payload = failure
        if status == "died":
            raise RuntimeError(f"run_async: process {i} (pid {procs[i].pid}) died ({payload})")
        name, message, trace = payload
        raise RuntimeError(f"run_async: process {i} (pid {procs[i].pid}) raised {name}: "
                           f"{message}") from _RemoteTraceback(trace)
    return [results[i] for i in range(n_process)]
