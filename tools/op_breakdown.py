"""Where a bench workload's kusari step spends its time, op by op, on one thread.

Run ``python tools/op_breakdown.py resnet20`` (``--steps N``; any workload of ``python -m bench --list``
that has a kusari setup). Every FunctionNode subclass's ``forward``, ``backward`` and
``backward_arrays`` is timed, each with its own time only (the time of wrapped calls inside it
subtracted), summed per op class over ``--steps`` steps after two warm-up steps, and printed as
milliseconds per step. What no op accounts for is the backprop engine's bookkeeping, the
optimizer and the model's Python code. The wrappers add a few microseconds per call, so the
figures suit large steps (convolutional networks), not batch-1 MLPs.
"""
import argparse
import collections
import importlib
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _time_ops(own):
    """Wrap the ops' methods so that ``own[(class name, method)]`` accumulates their own seconds."""
    import kusari.functions  # noqa: F401  (defines the op classes)
    from kusari.function_node import FunctionNode
    nested = []

    def timed(cls, name, method):
        def run(self, *args, **kwargs):
            start = time.perf_counter()
            nested.append(0.0)
            try:
                return method(self, *args, **kwargs)
            finally:
                elapsed, inner = time.perf_counter() - start, nested.pop()
                own[(cls.__name__, name)] += elapsed - inner
                if nested:
                    nested[-1] += elapsed
        return run

    for cls in set(_subclasses(FunctionNode)):
        for name in ("forward", "backward", "backward_arrays"):
            method = cls.__dict__.get(name)
            if callable(method):
                setattr(cls, name, timed(cls, name, method))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workload")
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args(argv)
    from threadpoolctl import threadpool_limits
    threadpool_limits(1)
    workload = importlib.import_module(f"bench.workloads.{args.workload}")
    own = collections.Counter()
    _time_ops(own)
    step = workload.setup_kusari(**workload.PARAMS)
    for _ in range(2):
        step()
    own.clear()
    start = time.perf_counter()
    for _ in range(args.steps):
        step()
    total = (time.perf_counter() - start) / args.steps * 1e3
    print(f"{workload.DESCRIPTION}: own time per step, {args.steps} steps, one thread")
    for (cls, method), seconds in sorted(own.items(), key=lambda item: -item[1]):
        ms = seconds / args.steps * 1e3
        if ms >= 0.05 * total / 100:
            print(f"  {cls + '.' + method:48s} {ms:9.1f} ms {100 * ms / total:5.1f} %")
    rest = total - sum(own.values()) / args.steps * 1e3
    print(f"  {'engine, optimizer, model code (no op)':48s} {rest:9.1f} ms {100 * rest / total:5.1f} %")
    print(f"  {'step':48s} {total:9.1f} ms")


if __name__ == "__main__":
    main()
