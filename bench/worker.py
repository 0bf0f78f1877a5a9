"""One framework's side of a round, run in its own process: ``python -m bench.worker --framework NAME ...``.

It sets the framework up for one thread, times each requested workload, and writes a JSON report to ``--out``:
``{"framework": ..., "info": {...versions...}, "results": {workload: {"us": ..., "samples": ..., "batch": ...}
| {"error": "..."}}}``. A workload that fails is reported with its error; the others still run.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import re
import sys
import warnings

from bench import timing, workloads

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _numpy_blas(numpy) -> str:
    """NumPy's BLAS as 'name version' (NumPy >= 2 reports it as dicts; NumPy 1.x as ``*_info`` tables)."""
    try:
        blas = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    except TypeError:
        for key in ("blas_ilp64_opt_info", "blas_opt_info"):
            libraries = getattr(numpy.__config__, key, {}).get("libraries")
            if libraries:
                return ", ".join(sorted(set(libraries)))
        return "unknown"


def openblas_core() -> str:
    """The kernel family the loaded OpenBLAS runs ('Haswell', 'SkylakeX', ...), or 'unknown'.

    OpenBLAS picks it from the CPU at load time (``OPENBLAS_CORETYPE`` overrides that); it decides
    whether NumPy's GEMMs use AVX2 or AVX-512.
    """
    import ctypes
    try:
        with open("/proc/self/maps") as stream:
            paths = sorted({line.split()[-1] for line in stream if "openblas" in line and "/" in line})
    except OSError:
        return "unknown"
    for path in paths:
        library = ctypes.CDLL(path)
        for symbol in ("scipy_openblas_get_corename64_", "openblas_get_corename64_", "openblas_get_corename"):
            routine = getattr(library, symbol, None)
            if routine is not None:
                routine.restype = ctypes.c_char_p
                return routine().decode()
    return "unknown"


def _numpy_info() -> dict[str, str]:
    import numpy
    return {"numpy": numpy.__version__, "blas": _numpy_blas(numpy), "OpenBLAS kernels": openblas_core()}


def prepare(framework: str) -> dict[str, str]:
    """Import ``framework``, pin it to one thread, and describe its versions."""
    info = {"python": platform.python_version(),
            "threads": ", ".join(f"{name}={os.environ.get(name, 'unset')}" for name in THREAD_VARIABLES)}
    if framework in ("torch", "torchvision"):
        with warnings.catch_warnings():  # the torch environment has no NumPy, and needs none
            warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
            import torch
        torch.set_num_threads(1)
        torch.set_num_interop_threads(1)
        blas = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
        info.update(torch=torch.__version__, blas=blas.group(1) if blas else "unknown",
                    threads=f"{info['threads']}, torch.get_num_threads()={torch.get_num_threads()}")
        if framework == "torchvision":
            import torchvision
            info["torchvision"] = torchvision.__version__
    else:
        module = __import__(framework)
        info[framework] = module.__version__
        info.update(_numpy_info())
        if framework == "kusari":
            info["oneDNN"] = _kusari_onednn()
    return info


def _kusari_onednn() -> str:
    """kusari's oneDNN: its version and ``config.use_onednn``, or why it does not run."""
    import kusari
    from kusari.onednn import library
    lib = library.load()
    if lib is None:
        return "not installed"
    return f"{'.'.join(map(str, lib.version_tuple))} (use_onednn={kusari.config.use_onednn})"


def run_workload(name: str, framework: str, overrides: dict[str, str], target_s: float,
                 warmup: int) -> dict[str, object]:
    """Time one workload; the result is ``{"us", "samples", "batch"}`` or ``{"error"}``."""
    try:
        module = workloads.load(name)
        step = workloads.setup(name, framework, workloads.resolve_params(name, overrides))
        found = timing.measure(step, target_s=target_s, warmup=warmup)
    except Exception as error:  # any failure of one framework's workload is a result to report, not a crash
        return {"error": f"{type(error).__name__}: {error}"}
    finally:
        gc.collect()
    return {"us": found.median_us / module.OPS_PER_STEP, "samples": found.samples, "batch": found.batch}


def parse_overrides(items: list[str]) -> dict[str, dict[str, str]]:
    """``["lstm_lm.bptt=10", ...]`` as ``{"lstm_lm": {"bptt": "10"}}``."""
    overrides: dict[str, dict[str, str]] = {}
    for item in items:
        key, sep, value = item.partition("=")
        name, dot, param = key.partition(".")
        if not (sep and dot and name and param):
            raise ValueError(f"bench: --set expects WORKLOAD.PARAM=VALUE, got {item!r}")
        workloads.load(name)
        overrides.setdefault(name, {})[param] = value
    return overrides


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.worker", description=__doc__.splitlines()[0])
    parser.add_argument("--framework", required=True, choices=workloads.FRAMEWORKS + workloads.OPTIONAL_FRAMEWORKS)
    parser.add_argument("--workloads", required=True, help="comma-separated workload names")
    parser.add_argument("--target-s", type=float, default=0.5)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--set", action="append", default=[], metavar="WORKLOAD.PARAM=VALUE")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    overrides = parse_overrides(args.set)
    report = {"framework": args.framework, "info": prepare(args.framework), "results": {}}
    for name in args.workloads.split(","):
        report["results"][name] = run_workload(name, args.framework, overrides.get(name, {}), args.target_s,
                                               args.warmup)
        print(f"[{args.framework}] {name}: {report['results'][name]}", file=sys.stderr, flush=True)
    with open(args.out, "w") as stream:
        json.dump(report, stream)
    return 0


if __name__ == "__main__":
    sys.exit(main())
