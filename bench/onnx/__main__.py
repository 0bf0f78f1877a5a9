"""Command line: ``python -m bench.onnx [--models lenet5,mlp,resnet50] [--quick] [--output PATH]``.

A full run of every model writes the ``onnx`` section of bench/RESULTS.md; ``--quick`` is a smoke test
(fewer images and timing runs, no file).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy

from bench import machine, results_file

SECTION = "onnx"
SIZE_GOAL, DROP_GOAL = 3.5, 0.3      # the goals: >= 3.5x smaller, <= 0.3 points of accuracy lost
CALIBRATION_IMAGES = 1000            # training images for the static models' activation ranges
DEFAULT_OUTPUT = Path(__file__).resolve().parents[1] / "RESULTS.md"


@dataclass
class Row:
    model: str
    mode: str
    fp32_bytes: int
    int8_bytes: int
    fp32_ms: float
    int8_ms: float
    metric: str
    fp32_value: float
    int8_value: float

    @property
    def ratio(self) -> float:
        return self.fp32_bytes / self.int8_bytes


def session(path: str):
    """An ONNX Runtime CPU session on one thread."""
    import onnxruntime
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def latencies_ms(paths, x: numpy.ndarray, target_s: float, rounds: int = 5, warmup: int = 5) -> list:
    """Median milliseconds of one ``run`` on ``x`` (batch 1) for each file, timed in interleaved rounds
    (each file ``target_s / rounds`` per round) so that a busy spell on a shared machine hits them alike."""
    sessions = [session(p) for p in paths]
    feeds = [{s.get_inputs()[0].name: x} for s in sessions]
    for s, feed in zip(sessions, feeds):
        for _ in range(warmup):
            s.run(None, feed)
    times = [[] for _ in paths]
    for _ in range(rounds):
        for s, feed, t in zip(sessions, feeds, times):
            start = time.perf_counter()
            while time.perf_counter() - start < target_s / rounds or len(t) < 2:
                t0 = time.perf_counter()
                s.run(None, feed)
                t.append(time.perf_counter() - t0)
    return [1e3 * statistics.median(t) for t in times]


def predict(path: str, x: numpy.ndarray, batch: int = 500) -> numpy.ndarray:
    s = session(path)
    name = s.get_inputs()[0].name
    return numpy.concatenate([s.run(None, {name: x[i:i + batch]})[0] for i in range(0, len(x), batch)])


def measure(name, mode, model, example, calibration, score, target_s, workdir) -> Row:
    """Export ``model``, quantize it (``calibration``: images for static quantization, None for dynamic; ``mode``
    names the format, QDQ or QOperator, and per-channel or per-tensor) and measure both."""
    import kusari.iterators
    import kusari.onnx
    fp32, int8 = os.path.join(workdir, f"{name}.onnx"), os.path.join(workdir, f"{name}.{mode}.int8.onnx")
    if not os.path.exists(fp32):
        kusari.onnx.export(model, example, filename=fp32, dynamic_axes={"Input_0": [0]})
    per_channel = "per-tensor" not in mode
    if calibration is None:
        kusari.onnx.quantize(fp32, int8, per_channel=per_channel)
    else:
        batches = kusari.iterators.SerialIterator(list(calibration), 50, repeat=False, shuffle=False)
        kusari.onnx.quantize(fp32, int8, calibration=batches, per_channel=per_channel,
                             quant_format="QOperator" if "QOperator" in mode else "QDQ")
    metric, fp32_value, int8_value = score(fp32, int8)
    fp32_ms, int8_ms = latencies_ms([fp32, int8], example[:1], target_s)
    return Row(name, mode, os.path.getsize(fp32), os.path.getsize(int8), fp32_ms, int8_ms, metric, fp32_value,
               int8_value)


def mnist_score(images, labels):
    def score(fp32, int8):
        acc = [100.0 * float((predict(p, images).argmax(axis=1) == labels).mean()) for p in (fp32, int8)]
        return f"MNIST test accuracy, % ({len(labels)} images)", acc[0], acc[1]
    return score


def agreement_score(images):
    def score(fp32, int8):
        agree = (predict(fp32, images, 8).argmax(axis=1) == predict(int8, images, 8).argmax(axis=1)).mean()
        return f"top-1 agreement with fp32, % ({len(images)} random images)", 100.0, 100.0 * float(agree)
    return score


def run(models, quick: bool, log=print) -> list[Row]:
    from kusari.datasets import get_mnist
    from kusari.model_zoo.models import LeNet5, MnistMLP
    target_s = 0.2 if quick else 2.0
    rows = []
    rng = numpy.random.default_rng(0)
    with tempfile.TemporaryDirectory() as workdir:
        if {"lenet5", "mlp"} & set(models):
            train, test = get_mnist(withlabel=True, ndim=3)
            n_test = 1000 if quick else len(test)
            images = numpy.stack([test[i][0] for i in range(n_test)])
            labels = numpy.array([test[i][1] for i in range(n_test)])
            calibration = numpy.stack([train[i][0] for i in range(200 if quick else CALIBRATION_IMAGES)])
        if "lenet5" in models:
            model = LeNet5(pretrained_model="lenet5-mnist")
            for mode in ("static QDQ S8S8, per-channel", "static QDQ S8S8, per-tensor",
                         "static QOperator S8S8, per-channel"):
                rows.append(measure("lenet5", mode, model, images[:2], calibration, mnist_score(images, labels),
                                    target_s, workdir))
                log(rows[-1])
        if "mlp" in models:
            flat = images.reshape(len(images), -1)
            for mode in ("dynamic, per-channel", "dynamic, per-tensor"):
                rows.append(measure("mnist-mlp", mode, MnistMLP(pretrained_model="mnist-mlp"), flat[:2], None,
                                    mnist_score(flat, labels), target_s, workdir))
                log(rows[-1])
        if "resnet50" in models:
            import kusari.vision.links as VL
            size = 224
            random_images = rng.uniform(0, 255, (8 if quick else 32, 3, size, size)).astype(numpy.float32)
            random_images -= random_images.mean()
            rows.append(measure("resnet50 (random weights)", "static QDQ S8S8, per-channel", VL.ResNet50(n_class=1000),
                                random_images[:1], random_images[:4 if quick else 16],
                                agreement_score(random_images), target_s, workdir))
            log(rows[-1])
    return rows


def report(rows: list[Row], quick: bool) -> str:
    """The Markdown section."""
    import onnx
    import onnxruntime
    info = machine.describe()
    flags = machine.cpu_flags()
    vnni = [f for f in ("avx512_vnni", "avx_vnni") if f in flags]
    lines = [
        "## Deployment: kusari.onnx export and int8 quantization in ONNX Runtime",
        "",
        f"Machine: {info['CPU']}, {info['logical cores']} logical cores; VNNI: "
        f"{', '.join(vnni) if vnni else 'none (no avx512_vnni / avx_vnni in /proc/cpuinfo)'}. "
        f"onnx {onnx.__version__}, onnxruntime {onnxruntime.__version__}, commit {info['commit']}, "
        f"{info['date (UTC)']} UTC. The machine was shared with other jobs while this ran: latencies are "
        "indicative, sizes and accuracies are exact." + (" Quick run (smoke test)." if quick else ""),
        "",
        "Produced by `python -m bench.onnx`. Latency: median of one ONNX Runtime `run` at batch 1, one thread "
        "(intra- and inter-op), default graph optimizations. Sizes are the .onnx files. Static models are "
        f"calibrated (MinMax) on {CALIBRATION_IMAGES} MNIST training images (ResNet-50: 16 random images). "
        "fp32 and int8 are timed in interleaved rounds. ResNet-50 has random weights (no ImageNet here): its "
        "near-uniform logits let small int8 errors change the top-1 class, so its agreement is no accuracy figure.",
        "",
        "| model | int8 mode | fp32 KB | int8 KB | smaller (goal >= 3.5x) | fp32 ms | int8 ms | speed-up | "
        "metric | fp32 | int8 | lost (goal <= 0.3 pt) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        lost = r.fp32_value - r.int8_value
        lines.append(
            f"| {r.model} | {r.mode} | {r.fp32_bytes / 1024:.1f} | {r.int8_bytes / 1024:.1f} | "
            f"{r.ratio:.2f}x {'met' if r.ratio >= SIZE_GOAL else 'missed'} | {r.fp32_ms:.3f} | {r.int8_ms:.3f} | "
            f"{r.fp32_ms / r.int8_ms:.2f}x | {r.metric} | {r.fp32_value:.2f} | {r.int8_value:.2f} | "
            + (f"{lost:+.2f} {'met' if lost <= DROP_GOAL else 'missed'} |" if "MNIST" in r.metric else "n/a |"))
    notes = [f"{r.model} ({r.mode}): {r.ratio:.2f}x smaller, {r.ratio / SIZE_GOAL:.2f} of the {SIZE_GOAL}x goal"
             + (f"; {r.fp32_value - r.int8_value:+.2f} points lost, against the {DROP_GOAL}-point goal"
                if "MNIST" in r.metric else "") for r in rows]
    lines += ["", "Against the goals: " + "; ".join(notes) + "."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.onnx", description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="lenet5,mlp,resnet50", help="comma-separated: lenet5, mlp, resnet50")
    parser.add_argument("--quick", action="store_true", help="a smoke test: fewer images and runs, no file")
    parser.add_argument("--output", type=Path, help="write the section to this Markdown file")
    args = parser.parse_args(argv)
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    unknown = sorted(set(models) - {"lenet5", "mlp", "resnet50"})
    if unknown or not models:
        parser.error(f"--models: unknown {unknown}; choose from lenet5, mlp, resnet50")
    rows = run(models, args.quick, log=lambda row: print(row, file=sys.stderr))
    text = report(rows, args.quick)
    print(text)
    output = args.output or (DEFAULT_OUTPUT if not args.quick and len(set(models)) == 3 else None)
    if output is not None:
        results_file.write_section(output, SECTION, text)
        print(f"wrote the {SECTION} section of {output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
