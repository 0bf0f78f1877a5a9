"""Timing one workload step: warm up, grow a batch of steps until it lasts ``MIN_BATCH_S``, then time such batches
until the time budget is spent and keep the median time per step."""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Callable

#: A timed batch lasts at least this long, so the clock's own cost stays far below the step's.
MIN_BATCH_S = 1e-3


@dataclass(frozen=True)
class Measurement:
    """The median seconds per step over ``samples`` timed batches of ``batch`` steps each."""

    median_s: float
    samples: int
    batch: int

    @property
    def median_us(self) -> float:
        return self.median_s * 1e6


def measure(step: Callable[[], object], *, target_s: float = 0.5, warmup: int = 3, min_samples: int = 3,
            clock: Callable[[], float] = time.perf_counter) -> Measurement:
    """Time ``step()`` and return the median time per call.

    Parameters
    ----------
    step: the zero-argument callable to time (one training step, one op, ...).
    target_s: keep timing until this many seconds were spent in timed batches (and ``min_samples`` batches ran).
    warmup: untimed calls first (fewer when a single call already takes longer than ``target_s``; at least one).
    min_samples: the least number of timed batches.
    clock: the time source (``time.perf_counter``; tests pass a fake).
    """
    if target_s <= 0:
        raise ValueError(f"measure: target_s must be positive, got {target_s!r}")
    if warmup < 1 or min_samples < 1:
        raise ValueError(f"measure: warmup and min_samples must be >= 1, got warmup={warmup!r}, "
                         f"min_samples={min_samples!r}")
    warmup_start = clock()
    for _ in range(warmup):
        step()
        if clock() - warmup_start >= target_s:
            break
    per_step: list[float] = []
    spent = 0.0
    batch = 1
    while spent < target_s or len(per_step) < min_samples:
        begin = clock()
        for _ in range(batch):
            step()
        elapsed = clock() - begin
        spent += elapsed
        if not per_step and elapsed < MIN_BATCH_S:
            batch *= 2  # still calibrating: grow the batch until it outlasts the clock's own cost
            continue
        per_step.append(elapsed / batch)
    return Measurement(statistics.median(per_step), len(per_step), batch)
