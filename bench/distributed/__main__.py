"""python -m bench.distributed: kusari.distributed's gradient allreduce against mpi4py's raw Allreduce
(ResNet-50's 25.6M floats, 2 ranks) and the MNIST example's epoch time at 1 and 2 ranks; writes the
'distributed' section of bench/RESULTS.md (or --output)."""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from bench import machine, results_file

REPO = Path(__file__).resolve().parents[2]
SECTION = "distributed"
GOAL = 0.9   # kusari's allreduce at least 0.9x raw mpi4py's bandwidth


def _launch(n, *args, timeout_s=1800):
    mpiexec = shutil.which("mpiexec")
    if mpiexec is None:
        sys.exit("bench.distributed: mpiexec not found (apt-get install openmpi-bin libopenmpi-dev)")
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p))
    command = [mpiexec, "--allow-run-as-root", "--oversubscribe", "-n", str(n), sys.executable, "-m",
               "bench.distributed.worker", *map(str, args)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, env=env, cwd=REPO)
    if done.returncode != 0:
        sys.exit(f"bench.distributed: {' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    return json.loads([line for line in done.stdout.splitlines() if line.startswith("{")][-1])


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f} / {fifteen:.1f}"


def markdown(allreduce, epochs, loads, command) -> str:
    seconds = allreduce["seconds"]
    nbytes = allreduce["floats"] * 4
    raw = seconds["raw"]
    lines = [
        "# kusari.distributed",
        "",
        f"Written by `{command}`. Two ranks on one machine (Open MPI, shared memory), one BLAS thread each.",
        f"**The machine is shared**: other engineers' jobs ran at the same time (load average 1 / 5 / 15 min "
        f"{loads[0]} at the start, {loads[1]} at the end, on {os.cpu_count()} logical cores), so absolute times "
        "are slow and noisy; the cases of each table were interleaved so that the load hits them alike.",
        "",
        f"## Gradient allreduce: ResNet-50's {allreduce['floats']:,} float32 ({nbytes / 2 ** 20:.1f} MiB), "
        f"{allreduce['ranks']} ranks",
        "",
        f"Median of {len(allreduce['all_seconds']['raw'])} repetitions (each rank's time, averaged over ranks). "
        "Bandwidth = bytes of the gradient / time. Goal: at least "
        f"{GOAL}x the bandwidth of mpi4py's raw in-place `Allreduce` of one buffer of the same size.",
        "",
        "| what | ms | MB/s | x raw bandwidth | goal met |",
        "|---|---|---|---|---|",
    ]
    labels = {"raw": "mpi4py `Allreduce` (in place, one buffer: the reference)",
              "flat_resnet50": "`flat` multi_node_mean_grad, 161 tensors (8 MiB or more in place, the rest in 16 MiB buckets; mean)",
              "flat_one_tensor": "`flat` multi_node_mean_grad, one 25.6M tensor (in place in 16 MiB slices; mean)",
              "naive_resnet50": "`naive` multi_node_mean_grad, 161 tensors (one allreduce each, mean)"}
    for key, label in labels.items():
        ratio = raw / seconds[key]
        met = "" if key == "raw" else ("yes" if ratio >= GOAL else "no")
        lines.append(f"| {label} | {seconds[key] * 1e3:.1f} | {nbytes / seconds[key] / 1e6:,.0f} | {ratio:.2f} | {met} |")
    met = [labels[k] for k in labels if k != "raw" and raw / seconds[k] >= GOAL]
    missed = [labels[k] for k in labels if k != "raw" and raw / seconds[k] < GOAL]
    lines += ["", f"Goal met by: {'; '.join(met) or 'none'}. Not met by: {'; '.join(missed) or 'none'}.",
              "What separates a model's exchange from the raw call: more calls (ResNet-50's 161 gradients make "
              "9 with `flat`: 4 large ones in place, 5 buckets; 161 with `naive`; plus one 16-byte layout "
              "check; each waits until both ranks run) and memory passes "
              "(packing copies small gradients in and out, and the mean divides by the size)."]
    one, two = epochs
    lines += [
        "",
        "## MNIST epoch (the data-parallel example's training: MLP 784-1000-1000-10, Adam, 100 examples per rank "
        "per step, `naive` communicator, evaluation excluded)",
        "",
        "| ranks | steps per rank | seconds per epoch | speed-up |",
        "|---|---|---|---|",
        f"| 1 | {one['steps_per_rank']} | {one['seconds']:.1f} | 1.00 |",
        f"| 2 | {two['steps_per_rank']} | {two['seconds']:.1f} | {one['seconds'] / two['seconds']:.2f} |",
        "",
        "Two ranks on two shared cores cannot show scaling: the other jobs take most of both cores, and each "
        "step's exchange (1,796,010 floats, 6.9 MiB, in 7 calls with `naive`) waits until both ranks are "
        "scheduled. See docs/distributed.md for the cost model on a real network.",
        "",
        "Each repetition of the allreduce table, in seconds:",
        "",
        "| what | seconds |",
        "|---|---|",
    ]
    for key, values in allreduce["all_seconds"].items():
        lines.append(f"| {key} | {' / '.join(f'{v:.3f}' for v in values)} |")
    lines += ["", "## Machine", ""]
    lines += [f"- {k}: {v}" for k, v in machine.describe().items()]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=15, help="allreduce repetitions (after one warm-up)")
    parser.add_argument("--output", type=Path, help="write the markdown here instead of bench/RESULTS.md")
    args = parser.parse_args(argv)
    start_load = _load()
    allreduce = _launch(2, "allreduce", "--repeats", args.repeats)
    print(json.dumps(allreduce["seconds"]), flush=True)
    epochs = [_launch(n, "mnist_epoch") for n in (1, 2)]
    print(json.dumps(epochs), flush=True)
    command = "python -m bench.distributed" + "".join(f" {shlex.quote(a)}" for a in argv)
    text = markdown(allreduce, epochs, (start_load, _load()), command)
    if args.output is not None:
        args.output.write_text(text)
    else:
        results_file.write_section(REPO / "bench" / "RESULTS.md", SECTION, text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
