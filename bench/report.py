"""Turning a run into the printed table and ``bench/RESULTS.md``."""
from __future__ import annotations

import statistics

from bench import workloads
from bench.runner import RunResult
from bench.worker import parse_overrides

REFERENCE = "kusari"


def medians(result: RunResult) -> dict[str, dict[str, float]]:
    """workload -> framework -> the median over rounds of the per-round median µs."""
    return {name: {framework: statistics.median(values) for framework, values in per_framework.items() if values}
            for name, per_framework in result.samples.items()}


def format_us(value: float | None) -> str:
    """µs for a table cell: thousands separators from 100 up, two decimals below; '—' when not measured."""
    if value is None:
        return "—"
    return f"{value:,.0f}" if value >= 100 else f"{value:.2f}"


def format_ratio(numerator: float | None, denominator: float | None) -> str:
    """``numerator / denominator`` to two decimals; '—' when either is missing."""
    if numerator is None or denominator is None or denominator == 0:
        return "—"
    return f"{numerator / denominator:.2f}"


def paired_ratio(reference: list[float] | None, peer: list[float] | None) -> float | None:
    """The median over rounds of ``reference / peer`` taken within each round.

    The frameworks of one round run back to back, so pairing them cancels the machine's slow
    drifts that a ratio of separate medians keeps. When the rounds do not pair up (a worker
    failed in some round), the ratio of the medians.
    """
    if not reference or not peer:
        return None
    if len(reference) == len(peer):
        return statistics.median(r / p for r, p in zip(reference, peer))
    return statistics.median(reference) / statistics.median(peer)


def table(result: RunResult) -> str:
    """A Markdown table: one row per workload, median µs per framework, then kusari's ratio to each peer."""
    found = medians(result)
    peers = [framework for framework in result.frameworks if framework != REFERENCE]
    ratios = [f"{REFERENCE}/{peer}" for peer in peers] if REFERENCE in result.frameworks else []
    header = ["workload", *(f"{framework} µs" for framework in result.frameworks), *ratios]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for name in result.workloads:
        row = found.get(name, {})
        cells = [workloads.load(name).DESCRIPTION, *(format_us(row.get(f)) for f in result.frameworks)]
        if ratios:
            per_framework = result.samples.get(name, {})
            cells += [format_ratio(paired_ratio(per_framework.get(REFERENCE), per_framework.get(peer)), 1.0)
                      for peer in peers]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def rounds_table(result: RunResult) -> str:
    """A Markdown table of every round's median µs per framework, to show how much the machine drifted."""
    header = ["workload", *result.frameworks]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for name in result.workloads:
        per_framework = result.samples.get(name, {})
        cells = [" / ".join(format_us(v) for v in per_framework.get(f, [])) or "—" for f in result.frameworks]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def notes(result: RunResult) -> list[str]:
    """One line per missing framework and per failed (workload, framework)."""
    lines = [f"{framework} is missing: {reason}" for framework, reason in result.missing.items()]
    for name in result.workloads:
        for framework, error in result.errors.get(name, {}).items():
            lines.append(f"{name} on {framework} failed: {error}")
    return lines


def markdown(result: RunResult, machine: dict[str, str], command: str) -> str:
    """The whole of ``bench/RESULTS.md``."""
    settings = result.settings
    parts = [
        "# kusari benchmarks", "",
        f"Written by `{command}`. Median µs per step (per op on the per-op row): each of {settings.rounds} "
        "round(s) runs every framework once, in its own process with one thread (OMP/OpenBLAS/MKL_NUM_THREADS=1, "
        "`torch.set_num_threads(1)`), in an order rotated each round; a measurement warms up, then times batches of "
        f"steps for about {settings.target_s:g} s and keeps the median; the table shows the median over rounds, and "
        "each ratio is the median over rounds of that round's ratio. "
        "Lower is better; a ratio below 1 means kusari is faster.", "",
        "## Machine", "", *(f"- {label}: {text}" for label, text in machine.items()), "",
        "## Frameworks", "", "| framework | versions and BLAS | threads |", "|---|---|---|",
    ]
    for framework in result.frameworks:
        info = dict(result.info.get(framework, {}))
        threads = info.pop("threads", "")
        versions = ", ".join(f"{key} {value}" for key, value in info.items()) or "not run"
        parts.append(f"| {framework} | {versions} | {threads} |")
    parts += ["", "## Results", "", table(result), ""]
    found_notes = notes(result)
    if found_notes:
        parts += ["Notes:", "", *(f"- {line}" for line in found_notes), ""]
    parts += ["Each round's median, in the order of the rounds:", "", rounds_table(result), "", "## Workloads", ""]
    overrides = parse_overrides(list(settings.overrides))
    for name in result.workloads:
        summary = " ".join((workloads.load(name).__doc__ or "").split("\n\n")[0].split())
        resolved = workloads.resolve_params(name, overrides.get(name, {}))
        params = ", ".join(f"{key}={value}" for key, value in resolved.items())
        parts.append(f"- `{name}`: {summary}" + (f" Parameters: {params}." if params else ""))
    return "\n".join(parts) + "\n"

