"""Rounds of one subprocess per framework, interleaved, gathered into per-round medians."""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Callable

from bench import environments
from bench.machine import REPO_ROOT
from bench.worker import THREAD_VARIABLES


@dataclass(frozen=True)
class Settings:
    """How to measure: rounds, seconds of timing per measurement, warmup calls, per-worker time limit."""

    rounds: int = 3
    target_s: float = 0.5
    warmup: int = 3
    timeout_s: float = 3600.0
    overrides: tuple[str, ...] = ()
    environment: tuple[tuple[str, str], ...] = ()  # extra variables for every worker, e.g. OPENBLAS_CORETYPE


@dataclass
class RunResult:
    """What a run found: per-round µs per (workload, framework), errors, frameworks missing, their versions."""

    workloads: list[str]
    frameworks: list[str]
    settings: Settings
    samples: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    errors: dict[str, dict[str, str]] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    info: dict[str, dict[str, str]] = field(default_factory=dict)

    def record(self, framework: str, report: dict) -> None:
        """Add one worker's JSON report."""
        self.info[framework] = report["info"]
        for name, result in report["results"].items():
            if "error" in result:
                self.errors.setdefault(name, {})[framework] = result["error"]
            else:
                self.samples.setdefault(name, {}).setdefault(framework, []).append(result["us"])

    def record_failure(self, framework: str, reason: str) -> None:
        """A worker that produced no report: every workload it was to run gets ``reason``."""
        for name in self.workloads:
            self.errors.setdefault(name, {})[framework] = reason


def round_order(frameworks: list[str], round_index: int) -> list[str]:
    """The frameworks rotated by ``round_index``, so each takes every position in turn."""
    shift = round_index % len(frameworks) if frameworks else 0
    return frameworks[shift:] + frameworks[:shift]


def worker_environment(settings: Settings) -> dict[str, str]:
    """The worker's environment variables: one BLAS/OpenMP thread, the settings' extras, ``bench`` importable."""
    env = dict(os.environ)
    env.update({name: "1" for name in THREAD_VARIABLES})
    env.update(dict(settings.environment))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    return env


def worker_command(python: str, framework: str, workloads: list[str], settings: Settings, out: str) -> list[str]:
    command = [python, "-m", "bench.worker", "--framework", framework, "--workloads", ",".join(workloads),
               "--target-s", repr(settings.target_s), "--warmup", str(settings.warmup), "--out", out]
    for item in settings.overrides:
        command += ["--set", item]
    return command


def run_worker(python: str, framework: str, workloads: list[str], settings: Settings) -> dict:
    """Run one worker and return its report; raises RuntimeError if it crashed or ran out of time."""
    with tempfile.TemporaryDirectory(prefix="kusari-bench-") as tmp:
        out = os.path.join(tmp, "report.json")
        command = worker_command(python, framework, workloads, settings, out)
        try:
            # the worker reports on stderr and in ``out``; its stdout carries only the frameworks' own chatter
            done = subprocess.run(command, cwd=REPO_ROOT, env=worker_environment(settings),
                                  timeout=settings.timeout_s, stdout=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"the {framework} worker ran past {settings.timeout_s:.0f} s") from None
        if done.returncode != 0 or not os.path.exists(out):
            raise RuntimeError(f"the {framework} worker exited with code {done.returncode}")
        with open(out) as stream:
            return json.load(stream)


def run(workloads: list[str], frameworks: list[str], settings: Settings, *,
        log: Callable[[str], None] = print) -> RunResult:
    """Build or find each framework's environment, then run ``settings.rounds`` interleaved rounds."""
    result = RunResult(list(workloads), list(frameworks), settings)
    pythons = {}
    for framework in frameworks:
        try:
            pythons[framework] = environments.ensure(framework, log=log)
        except environments.EnvironmentUnavailable as error:
            result.missing[framework] = str(error)
            log(f"bench: {framework} is missing: {error}")
    available = [framework for framework in frameworks if framework in pythons]
    for round_index in range(settings.rounds):
        for framework in round_order(available, round_index):
            log(f"bench: round {round_index + 1}/{settings.rounds}, {framework}")
            try:
                result.record(framework, run_worker(pythons[framework], framework, workloads, settings))
            except RuntimeError as error:
                result.record_failure(framework, str(error))
                log(f"bench: {error}")
    return result
