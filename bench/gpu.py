"""GPU benchmarks (issue 35): kusari on CuPy against the machine's PyTorch on CUDA, in one process.

    python -m bench.gpu [WORKLOAD ...] [--target-s S] [--budget-s S] [--quick]
    python -m bench --device gpu [WORKLOAD ...] [--target-s S] [--quick]

Workloads, cheapest first (so a run cut short still reports the small ones): an MLP 784-1000-1000-10
SGD step at batch 100, a LeNet-5 SGD step at batch 128, a DQN-size update (Q MLP 4-256-256-2, batch
64, a target network, Adam), and a ResNet-50 momentum-SGD training step at batch 64 in float32 and
in mixed precision (kusari: ``config.dtype = 'mixed16'``, float32 master weights, dynamic loss
scaling; PyTorch: ``torch.autocast`` float16 with a ``GradScaler``). The small models also run
kusari's whole step under ``static_graph(cuda_graph=True)``; a capture that falls back is noted
under its row (softmax_cross_entropy's label check reads the device, so the MLP and LeNet-5
classifier steps are expected to replay without CUDA graphs until that check stays on the device).

A step is timed as ``bench.timing.measure`` times CPU steps, with a clock that waits for the device
first, so every timed batch of steps ends when the GPU has finished them. Without CuPy and a GPU the
command exits at once (status 2). Without a PyTorch that sees the GPU (a device machine gets only
what travels to it, 64 MiB, and torch's CUDA wheels are far larger), the torch column says why and
kusari's figures are still printed.
"""
from __future__ import annotations

import argparse
import copy
import sys
import time
import warnings
from typing import Callable

from bench import timing
from bench.workloads import _mlp, _resnet50, lenet5
from bench.workloads._api import ChainerAPI

#: name -> (description, images or samples per step, the issue's goal for it)
WORKLOADS = {
    "mlp": ("MLP 784-1000-1000-10, batch 100, SGD step", 100, "cuda_graph >= 2x torch"),
    "lenet5": ("LeNet-5, batch 128, SGD step", 128, "cuda_graph >= 2x torch"),
    "dqn": ("DQN update, MLP 4-256-256-2, batch 64, Adam", 64, "cuda_graph >= 2x torch"),
    "resnet50": ("ResNet-50 224x224, batch 64, momentum SGD, float32", 64, "kusari >= 0.9x torch"),
    "resnet50_mixed16": ("ResNet-50 224x224, batch 64, momentum SGD, mixed16", 64, "kusari >= 0.9x torch"),
}
#: The goals as (variant, least speed relative to torch): speed = torch's time / the variant's time.
GOALS = {"mlp": ("kusari+cuda_graph", 2.0), "lenet5": ("kusari+cuda_graph", 2.0),
         "dqn": ("kusari+cuda_graph", 2.0), "resnet50": ("kusari", 0.9), "resnet50_mixed16": ("kusari", 0.9)}
GAMMA = 0.99
LEARNING_RATE = 0.01
MOMENTUM = 0.9


class NoGPU(RuntimeError):
    """CuPy or a CUDA GPU is missing."""


def gpu_or_exit():
    """cupy, with a GPU to run on; raises NoGPU saying what is missing."""
    try:
        import cupy
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:     # ImportError, or CUDARuntimeError without a driver or device
        raise NoGPU(f"{type(e).__name__}: {e}") from e
    if count < 1:
        raise NoGPU("CUDA sees no device")
    return cupy


def torch_or_reason():
    """(torch, None) when PyTorch imports and sees a GPU, else (None, why not)."""
    try:
        import torch
    except Exception as e:
        return None, (f"PyTorch does not import here ({type(e).__name__}: {e}); a device machine gets only "
                      "what travels to it (64 MiB) and torch's CUDA wheels are far larger")
    if not torch.cuda.is_available():
        return None, f"PyTorch {torch.__version__} does not see a CUDA device (a CPU-only build?)"
    return torch, None


# kusari's steps ---------------------------------------------------------------------------------------
def _kusari_classifier(model, optimizer, x, t, cuda_graph):
    import kusari
    F = kusari.functions

    def step(model, optimizer, x, t):
        loss = F.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        return loss

    if cuda_graph:
        step = kusari.static_graph(step, cuda_graph=True)
    return lambda: step(model, optimizer, x, t)


def _kusari_data(cupy, api, shape, classes, dtype="float32"):
    x = cupy.asarray(api.normal(*shape).astype(dtype))
    t = cupy.asarray(api.labels(classes, shape[0]))
    return x, t


def kusari_mlp(cupy, cuda_graph):
    api = ChainerAPI("kusari")
    model = _mlp.chainer_mlp(api, (784, 1000, 1000, 10))
    model.to_device("@cupy:0")
    optimizer = api.optimizers.SGD(lr=LEARNING_RATE).setup(model)
    return _kusari_classifier(model, optimizer, *_kusari_data(cupy, api, (100, 784), 10), cuda_graph)


def kusari_lenet5(cupy, cuda_graph):
    api = ChainerAPI("kusari")
    model = lenet5.chainer_lenet5(api)
    model.to_device("@cupy:0")
    optimizer = api.optimizers.SGD(lr=LEARNING_RATE).setup(model)
    return _kusari_classifier(model, optimizer, *_kusari_data(cupy, api, (128, 1, 28, 28), 10), cuda_graph)


def kusari_dqn(cupy, cuda_graph):
    import kusari
    api = ChainerAPI("kusari")
    F = api.F
    q_function = _mlp.chainer_mlp(api, (4, 256, 256, 2))
    q_function.to_device("@cupy:0")
    target = copy.deepcopy(q_function)
    optimizer = api.optimizers.Adam().setup(q_function)
    batch = 64
    obs, next_obs = cupy.asarray(api.normal(batch, 4)), cupy.asarray(api.normal(batch, 4))
    action = cupy.asarray(api.labels(2, batch))
    reward = cupy.asarray(api.normal(batch))
    not_done = cupy.asarray((api.rng.random(batch) > 0.1).astype("float32"))

    def update(obs, action, reward, next_obs, not_done):
        with kusari.no_backprop_mode():
            next_q = F.max(target(next_obs), axis=1)
        # ops only, Variable first: a replay must recompute y from this call's arrays
        y = next_q * not_done * GAMMA + reward
        loss = F.mean_squared_error(F.select_item(q_function(obs), action), y)
        q_function.cleargrads()
        loss.backward()
        optimizer.update()
        return loss

    if cuda_graph:
        update = kusari.static_graph(update, cuda_graph=True)
    return lambda: update(obs, action, reward, next_obs, not_done)


def kusari_resnet50(cupy, mixed16):
    import kusari
    api = ChainerAPI("kusari")
    with kusari.using_config("dtype", "mixed16" if mixed16 else "float32"):
        model = _resnet50.chainer_resnet50(api)
    model.to_device("@cupy:0")
    optimizer = api.optimizers.MomentumSGD(lr=LEARNING_RATE, momentum=MOMENTUM).setup(model)
    size = _resnet50.SIZE
    x, t = _kusari_data(cupy, api, (64, 3, size, size), _resnet50.CLASSES, "float16" if mixed16 else "float32")
    if not mixed16:
        return _kusari_classifier(model, optimizer, x, t, False)
    optimizer.use_fp32_update()
    optimizer.loss_scaling()

    def step():
        optimizer.update(lambda: api.F.softmax_cross_entropy(model(x), t))
    return step


# PyTorch's ---------------------------------------------------------------------------------------------
def _torch_classifier(torch, model, optimizer, x, t, mixed16=False):
    cross_entropy = torch.nn.functional.cross_entropy
    if not mixed16:
        def step():
            loss = cross_entropy(model(x), t)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        return step
    scaler = torch.amp.GradScaler("cuda")

    def step_mixed():
        with torch.autocast("cuda", dtype=torch.float16):
            loss = cross_entropy(model(x), t)
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    return step_mixed


def torch_mlp(torch):
    model = _mlp.torch_mlp(torch, (784, 1000, 1000, 10)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    return _torch_classifier(torch, model, optimizer, torch.randn(100, 784, device="cuda"),
                             torch.randint(0, 10, (100,), device="cuda"))


def torch_lenet5(torch):
    model = lenet5.torch_lenet5(torch).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    return _torch_classifier(torch, model, optimizer, torch.randn(128, 1, 28, 28, device="cuda"),
                             torch.randint(0, 10, (128,), device="cuda"))


def torch_dqn(torch):
    q_function = _mlp.torch_mlp(torch, (4, 256, 256, 2)).cuda()
    target = copy.deepcopy(q_function)
    optimizer = torch.optim.Adam(q_function.parameters())
    obs, next_obs = torch.randn(64, 4, device="cuda"), torch.randn(64, 4, device="cuda")
    action = torch.randint(0, 2, (64,), device="cuda")
    reward = torch.randn(64, device="cuda")
    not_done = (torch.rand(64, device="cuda") > 0.1).float()

    def step():
        with torch.no_grad():
            y = reward + GAMMA * not_done * target(next_obs).max(dim=1).values
        loss = torch.nn.functional.mse_loss(q_function(obs).gather(1, action[:, None])[:, 0], y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    return step


def torch_resnet50(torch, mixed16):
    model = _resnet50.torch_resnet50(torch).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE, momentum=MOMENTUM)
    size = _resnet50.SIZE
    return _torch_classifier(torch, model, optimizer, torch.randn(64, 3, size, size, device="cuda"),
                             torch.randint(0, _resnet50.CLASSES, (64,), device="cuda"), mixed16)


def variants(name: str, cupy, torch) -> dict[str, Callable[[], Callable[[], object]]]:
    """The builders of workload ``name``'s variants: variant name -> a function returning the step."""
    builders = {
        "mlp": {"kusari": lambda: kusari_mlp(cupy, False), "kusari+cuda_graph": lambda: kusari_mlp(cupy, True),
                "torch": lambda: torch_mlp(torch)},
        "lenet5": {"kusari": lambda: kusari_lenet5(cupy, False),
                   "kusari+cuda_graph": lambda: kusari_lenet5(cupy, True), "torch": lambda: torch_lenet5(torch)},
        "dqn": {"kusari": lambda: kusari_dqn(cupy, False), "kusari+cuda_graph": lambda: kusari_dqn(cupy, True),
                "torch": lambda: torch_dqn(torch)},
        "resnet50": {"kusari": lambda: kusari_resnet50(cupy, False), "torch": lambda: torch_resnet50(torch, False)},
        "resnet50_mixed16": {"kusari": lambda: kusari_resnet50(cupy, True),
                             "torch": lambda: torch_resnet50(torch, True)},
    }[name]
    if torch is None:
        del builders["torch"]
    return builders


# timing and the report ---------------------------------------------------------------------------------
def synced_clock(cupy, torch) -> Callable[[], float]:
    """``time.perf_counter`` read after the device has finished the work queued so far."""
    def clock():
        cupy.cuda.Device().synchronize()
        if torch is not None:
            torch.cuda.synchronize()
        return time.perf_counter()
    return clock


def run(selected, cupy, torch, target_s: float, budget_s: float, out=print) -> list[dict]:
    """Time every variant of the ``selected`` workloads; print one line per variant as it finishes, then the
    summary. Returns the rows (workload, variant, ms per step, per second, speed vs torch)."""
    clock = synced_clock(cupy, torch)
    start = time.perf_counter()
    rows = []
    for name in selected:
        description, per_step, goal = WORKLOADS[name]
        for variant, build in variants(name, cupy, torch).items():
            if time.perf_counter() - start > budget_s:
                out(f"{name:18s} {variant:18s} skipped: the {budget_s:.0f} s budget is spent")
                continue
            began = time.perf_counter()
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    step = build()
                    measured = timing.measure(step, target_s=target_s, warmup=5, clock=clock)
            except Exception as e:     # one failing variant must not hide the others' figures
                out(f"{name:18s} {variant:18s} FAILED: {type(e).__name__}: {str(e)[:300]}")
                continue
            finally:
                step = None     # the model and its graphs go, then their memory
                cupy.get_default_memory_pool().free_all_blocks()
                if torch is not None:
                    torch.cuda.empty_cache()
            ms = measured.median_s * 1e3
            rows.append({"workload": name, "variant": variant, "ms": ms, "per_s": per_step / measured.median_s})
            out(f"{name:18s} {variant:18s} {ms:10.3f} ms/step {per_step / measured.median_s:12.1f}/s "
                f"({measured.samples} batches of {measured.batch}; {time.perf_counter() - began:.1f} s with setup)")
            for note in sorted({str(w.message) for w in caught if "static_graph" in str(w.message)}):
                out(f"{'':37s} note: {note[:400]}")     # e.g. why a CUDA-graph capture fell back
    return rows


def summary(rows: list[dict]) -> list[str]:
    """Each workload's goal: the variant's speed relative to torch (torch's time / its time) against the goal."""
    lines = []
    torch_ms = {r["workload"]: r["ms"] for r in rows if r["variant"] == "torch"}
    for name, (variant, least) in GOALS.items():
        mine = [r["ms"] for r in rows if r["workload"] == name and r["variant"] == variant]
        if not mine:
            continue
        if name not in torch_ms:
            lines.append(f"goal {name}: {variant} {mine[0]:.3f} ms; no torch figure to compare with")
            continue
        speed = torch_ms[name] / mine[0]
        verdict = "met" if speed >= least else "NOT met"
        lines.append(f"goal {name}: {variant} at {speed:.2f}x torch's speed (goal >= {least}x): {verdict}")
    return lines


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench.gpu", description=__doc__.split("\n\n")[0])
    parser.add_argument("workloads", nargs="*", metavar="WORKLOAD",
                        help=f"workloads (default: all, in this order): {', '.join(WORKLOADS)}")
    parser.add_argument("--target-s", type=float, default=1.0, help="seconds of timing per variant (%(default)s)")
    parser.add_argument("--budget-s", type=float, default=90.0,
                        help="start no variant after this many seconds (%(default)s; tools/gpu_check.sh's "
                             "bench stage is killed at 100 s)")
    parser.add_argument("--quick", action="store_true", help="0.2 s per variant: a smoke test, not a measurement")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    unknown = [name for name in args.workloads if name not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload(s) {', '.join(unknown)}; known: {', '.join(WORKLOADS)}")
    if args.target_s <= 0 or args.budget_s <= 0:
        parser.error(f"--target-s and --budget-s must be positive, got {args.target_s} and {args.budget_s}")
    try:
        cupy = gpu_or_exit()
    except NoGPU as e:
        print(f"bench.gpu: no usable GPU ({e}); the GPU benchmarks need CuPy and a CUDA device", file=sys.stderr)
        return 2
    torch, why_not = torch_or_reason()
    name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
    print(f"bench.gpu: {name.decode() if isinstance(name, bytes) else name} | cupy {cupy.__version__} | "
          + (f"torch {torch.__version__} (CUDA {torch.version.cuda})" if torch else f"torch: none: {why_not}"))
    selected = args.workloads or list(WORKLOADS)
    rows = run(selected, cupy, torch, 0.2 if args.quick else args.target_s, args.budget_s)
    for line in summary(rows):
        print(line)
    if args.quick:
        print("bench.gpu: --quick: a smoke test, not a measurement")
    return 0


if __name__ == "__main__":
    sys.exit(main())
