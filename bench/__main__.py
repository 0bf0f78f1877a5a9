"""Command line: ``python -m bench [WORKLOAD ...] [--rounds N] [--frameworks kusari,torch,chainer] [--quick]``;
``--device gpu`` runs the GPU benchmarks instead (``bench.gpu``)."""
from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from bench import environments, machine, report, results_file, runner, workloads
from bench.worker import parse_overrides

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "RESULTS.md"
FULL = {"rounds": 3, "target_s": 0.5, "warmup": 3}
QUICK = {"rounds": 1, "target_s": 0.1, "warmup": 1}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Time kusari, PyTorch CPU and Chainer 7.8.1 side by side (one thread each, interleaved rounds) "
                    "and print median µs and kusari's ratios. A full, non-quick run of every workload also writes "
                    "bench/RESULTS.md; otherwise pass --output to write a report.")
    parser.add_argument("workloads", nargs="*", metavar="WORKLOAD",
                        help=f"workloads to run (default: all): {', '.join(workloads.WORKLOADS)}")
    parser.add_argument("--frameworks", default=",".join(workloads.FRAMEWORKS),
                        help="comma-separated frameworks (default: %(default)s; also: "
                             f"{', '.join(workloads.OPTIONAL_FRAMEWORKS)})")
    parser.add_argument("--rounds", type=int, help=f"rounds (default {FULL['rounds']}, quick {QUICK['rounds']})")
    parser.add_argument("--target-s", type=float,
                        help=f"seconds of timing per measurement (default {FULL['target_s']}, "
                             f"quick {QUICK['target_s']})")
    parser.add_argument("--warmup", type=int, help=f"warmup calls (default {FULL['warmup']}, quick {QUICK['warmup']})")
    parser.add_argument("--quick", action="store_true", help="one short round: a smoke test, not a measurement")
    parser.add_argument("--set", action="append", default=[], metavar="WORKLOAD.PARAM=VALUE",
                        help="override a workload parameter, e.g. lstm_lm.bptt=10 (repeatable)")
    parser.add_argument("--timeout-s", type=float, default=3600.0, help="time limit of one worker process")
    parser.add_argument("--output", type=Path, help="write the Markdown report here")
    parser.add_argument("--openblas-kernels", choices=("auto", "inherit"), default="auto",
                        help="auto (default): if OpenBLAS would run AVX2 kernels on an AVX-512 CPU, run the "
                             "NumPy-based frameworks with OPENBLAS_CORETYPE=SkylakeX, as PyTorch uses AVX-512 "
                             "there; inherit: keep the environment's (or OpenBLAS's own) choice")
    parser.add_argument("--list", action="store_true", help="list the workloads and their parameters, then exit")
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu",
                        help="gpu: the GPU benchmarks of bench.gpu (kusari on CuPy against PyTorch on CUDA; "
                             "WORKLOAD, --target-s and --quick carry over), exiting at once without a GPU")
    return parser


def gpu_argv(args: argparse.Namespace) -> list[str]:
    """The ``bench.gpu`` command line for ``--device gpu``."""
    argv = list(args.workloads)
    if args.target_s is not None:
        argv += ["--target-s", str(args.target_s)]
    return argv + (["--quick"] if args.quick else [])


def parse_frameworks(text: str) -> list[str]:
    """``"kusari,torch"`` as a list, each checked against the known frameworks."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    known = workloads.FRAMEWORKS + workloads.OPTIONAL_FRAMEWORKS
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise ValueError(f"bench: --frameworks got {text!r}; choose from {', '.join(known)}")
    return names


def settings_from(args: argparse.Namespace, environment: dict[str, str] | None = None) -> runner.Settings:
    """The run's settings: explicit options win, then the quick or full defaults."""
    defaults = QUICK if args.quick else FULL
    chosen = {key: getattr(args, key) if getattr(args, key) is not None else value for key, value in defaults.items()}
    if chosen["rounds"] < 1 or chosen["target_s"] <= 0 or chosen["warmup"] < 1:
        raise ValueError(f"bench: --rounds and --warmup must be >= 1 and --target-s > 0, got {chosen}")
    return runner.Settings(timeout_s=args.timeout_s, overrides=tuple(args.set),
                           environment=tuple(sorted((environment or {}).items())), **chosen)


def _numpy_pythons(frameworks: list[str]) -> list[str]:
    """The interpreters of the NumPy-based frameworks among ``frameworks`` that have an environment."""
    pythons = []
    for framework in frameworks:
        if framework == "torch":
            continue
        try:
            pythons.append(environments.ensure(framework, log=lambda line: print(line, file=sys.stderr)))
        except environments.EnvironmentUnavailable:
            pass  # the run reports it
    return pythons


def output_path(args: argparse.Namespace, selected: list[str]) -> Path | None:
    """Where the report goes: ``--output``, else bench/RESULTS.md for a full run of every workload, else nowhere."""
    if args.output is not None:
        return args.output
    if not args.quick and tuple(selected) == workloads.WORKLOADS:
        return DEFAULT_OUTPUT
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.device == "gpu":
        from bench import gpu
        return gpu.main(gpu_argv(args))
    try:
        if args.list:
            for name in workloads.WORKLOADS:
                print(f"{name}: {workloads.load(name).DESCRIPTION} {workloads.resolve_params(name, {})}")
            return 0
        selected = list(args.workloads) or list(workloads.WORKLOADS)
        for name in selected:
            workloads.load(name)
        frameworks = parse_frameworks(args.frameworks)
        environment, kernels = {}, "OpenBLAS kernels as the environment has them (--openblas-kernels inherit)"
        if args.openblas_kernels == "auto":
            environment, kernels = machine.openblas_override(_numpy_pythons(frameworks))
        settings = settings_from(args, environment)
        for name, params in parse_overrides(args.set).items():
            workloads.resolve_params(name, params)
    except ValueError as error:
        parser.error(str(error))
    print(f"bench: {kernels}", file=sys.stderr)
    result = runner.run(selected, frameworks, settings, log=lambda line: print(line, file=sys.stderr, flush=True))
    print(report.table(result))
    for line in report.notes(result):
        print(f"note: {line}")
    destination = output_path(args, selected)
    if destination is not None:
        command = "python -m bench" + "".join(f" {shlex.quote(arg)}" for arg in argv)
        description = {**machine.describe(), "BLAS kernels": kernels}
        results_file.write_section(destination, "core", report.markdown(result, description, command))
        print(f"wrote {destination}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
