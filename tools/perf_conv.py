"""Time kusari's CPU convolution and pooling, one thread, next to PyTorch CPU when a build is at hand.

Run ``python tools/perf_conv.py`` (``--repeats N``, ``--rounds N``, ``--threads N``, ``--torch PYTHON``,
``--only NAME``). Each framework runs in its own subprocesses with ``OMP_NUM_THREADS`` /
``OPENBLAS_NUM_THREADS`` / ``MKL_NUM_THREADS`` set before NumPy or torch is imported, the two
frameworks taking turns for ``--rounds`` rounds of ``--repeats`` timed calls (after two warm-up
calls). For every workload it prints the median and the minimum of the wall time
(``time.perf_counter``) and of the CPU time (``time.process_time``) over all timed calls; on a
shared, busy machine the minimum CPU time is the steadiest figure.

Workloads (float32; forward, then backward from a gradient of ones):

* ``conv3x3``: 3x3 convolution 64 -> 64 channels, pad 1, with bias, x (32, 64, 32, 32); gradients
  to x, W and b.
* ``lenet_convs``: LeNet-5's feature extractor on a data batch (128, 1, 28, 28): conv 5x5 1 -> 6,
  relu, max pool 2, conv 5x5 6 -> 16, relu, max pool 2; gradients to the filters and biases (not
  to the data, as in a training step).
* ``maxpool``: max_pooling_2d 2x2 (stride 2) on x (128, 6, 24, 24).
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import time

WORKLOADS = ("conv3x3", "lenet_convs", "maxpool")
_TORCH_GLOB = os.path.expanduser("~/.cache/kusari-bench/envs/*/bin/python")


def _time(step, repeats):
    for _ in range(2):
        step()
    wall, cpu = [], []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        step()
        wall.append((time.perf_counter() - w0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
    return {"wall_ms": wall, "cpu_ms": cpu}


def _kusari_steps():
    import numpy

    import kusari
    import kusari.functions as F

    rng = numpy.random.default_rng(0)

    def param(*shape):
        return kusari.Parameter(rng.standard_normal(shape, dtype=numpy.float32) * 0.1)

    def run(loss_fn, params):
        def step():
            for p in params:
                p.cleargrad()
            loss = loss_fn()
            loss.grad = numpy.ones_like(loss.array)
            loss.backward()
        return step

    x3 = kusari.Variable(rng.standard_normal((32, 64, 32, 32), dtype=numpy.float32))
    w3, b3 = param(64, 64, 3, 3), param(64)
    xl = rng.standard_normal((128, 1, 28, 28), dtype=numpy.float32)  # data: no gradient
    w1, b1, w2, b2 = param(6, 1, 5, 5), param(6), param(16, 6, 5, 5), param(16)
    xp = kusari.Variable(rng.standard_normal((128, 6, 24, 24), dtype=numpy.float32))

    def lenet():
        h = F.max_pooling_2d(F.relu(F.convolution_2d(xl, w1, b1)), 2)
        return F.max_pooling_2d(F.relu(F.convolution_2d(h, w2, b2)), 2)

    return {
        "conv3x3": run(lambda: F.convolution_2d(x3, w3, b3, pad=1), (x3, w3, b3)),
        "lenet_convs": run(lenet, (w1, b1, w2, b2)),
        "maxpool": run(lambda: F.max_pooling_2d(xp, 2), (xp,)),
    }


def _torch_steps():
    import torch
    import torch.nn.functional as tf

    torch.manual_seed(0)

    def t(*shape, scale=1.0):
        return (torch.randn(*shape) * scale).requires_grad_()

    def run(loss_fn, params):
        def step():
            for p in params:
                p.grad = None
            y = loss_fn()
            y.backward(torch.ones_like(y))
        return step

    x3, w3, b3 = t(32, 64, 32, 32), t(64, 64, 3, 3, scale=0.1), t(64, scale=0.1)
    xl = torch.randn(128, 1, 28, 28)
    w1, b1, w2, b2 = t(6, 1, 5, 5, scale=0.1), t(6, scale=0.1), t(16, 6, 5, 5, scale=0.1), t(16, scale=0.1)
    xp = t(128, 6, 24, 24)

    def lenet():
        h = tf.max_pool2d(torch.relu(tf.conv2d(xl, w1, b1)), 2)
        return tf.max_pool2d(torch.relu(tf.conv2d(h, w2, b2)), 2)

    return {
        "conv3x3": run(lambda: tf.conv2d(x3, w3, b3, padding=1), (x3, w3, b3)),
        "lenet_convs": run(lenet, (w1, b1, w2, b2)),
        "maxpool": run(lambda: tf.max_pool2d(xp, 2), (xp,)),
    }


def _worker(framework, names, repeats):
    steps = _kusari_steps() if framework == "kusari" else _torch_steps()
    print(json.dumps({name: _time(steps[name], repeats) for name in names}))


def _run_worker(python, framework, names, repeats, threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads),
               MKL_NUM_THREADS=str(threads))
    cmd = [python, os.path.abspath(__file__), "--worker", framework, "--repeats", str(repeats),
           "--only", ",".join(names)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def _find_torch():
    for python in sorted(glob.glob(_TORCH_GLOB)):
        probe = subprocess.run([python, "-c", "import torch"], capture_output=True)
        if probe.returncode == 0:
            return python
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--only", default=",".join(WORKLOADS), help="comma-separated workload names")
    parser.add_argument("--torch", default=None, help="a python with torch (default: looked up in "
                        "~/.cache/kusari-bench/envs; 'none' to skip)")
    parser.add_argument("--worker", choices=("kusari", "torch"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    names = [n for n in args.only.split(",") if n]
    unknown = set(names) - set(WORKLOADS)
    if unknown:
        parser.error(f"unknown workloads {sorted(unknown)}; choose from {WORKLOADS}")
    if args.worker:
        _worker(args.worker, names, args.repeats)
        return
    torch_python = None if args.torch == "none" else (args.torch or _find_torch())
    runs = {"kusari": sys.executable, **({"torch": torch_python} if torch_python else {})}
    samples = {fw: {name: {"wall_ms": [], "cpu_ms": []} for name in names} for fw in runs}
    for _ in range(args.rounds):
        for fw, python in runs.items():
            for name, times in _run_worker(python, fw, names, args.repeats, args.threads).items():
                for key, values in times.items():
                    samples[fw][name][key].extend(values)
    print(f"threads={args.threads} rounds={args.rounds} repeats={args.repeats}; ms as "
          "median/min, wall | cpu; ratio = kusari/torch of min cpu")
    for name in names:
        row = f"{name:12s}"
        for fw in runs:
            s = samples[fw][name]
            row += (f"  {fw} {statistics.median(s['wall_ms']):7.1f}/{min(s['wall_ms']):7.1f} | "
                    f"{statistics.median(s['cpu_ms']):7.1f}/{min(s['cpu_ms']):7.1f}")
        if "torch" in runs:
            ratio = min(samples["kusari"][name]["cpu_ms"]) / min(samples["torch"][name]["cpu_ms"])
            row += f"  ratio {ratio:5.2f}"
        print(row)


if __name__ == "__main__":
    main()
