"""bench.gpu on the CPU: without a GPU it exits at once; the runner, the goals and the command line work
(a stand-in CuPy and stand-in steps, since the real variants need a device)."""
import importlib.util
import time
import warnings

import pytest

from bench import __main__ as cli
from bench import gpu

no_cupy = pytest.mark.skipif(importlib.util.find_spec("cupy") is not None,
                             reason="CuPy is installed: the benchmarks would run")


@no_cupy
def test_without_a_gpu_it_exits_at_once(capsys):
    start = time.monotonic()
    assert gpu.main([]) == 2
    assert time.monotonic() - start < 5
    err = capsys.readouterr().err
    assert "bench.gpu: no usable GPU (ModuleNotFoundError" in err and "need CuPy and a CUDA device" in err


@no_cupy
def test_bench_device_gpu_runs_bench_gpu(capsys):
    assert cli.main(["--device", "gpu", "mlp", "--quick"]) == 2
    assert "no usable GPU" in capsys.readouterr().err
    args = cli.build_parser().parse_args(["--device", "gpu", "dqn", "mlp", "--target-s", "0.5", "--quick"])
    assert cli.gpu_argv(args) == ["dqn", "mlp", "--target-s", "0.5", "--quick"]


def test_arguments_are_checked():
    with pytest.raises(SystemExit):
        gpu.main(["resnet18"])
    with pytest.raises(SystemExit):
        gpu.main(["--budget-s", "0"])


def test_torch_missing_is_said():
    torch, why = gpu.torch_or_reason()
    if importlib.util.find_spec("torch") is None:
        assert torch is None and "PyTorch does not import here" in why and "64 MiB" in why
    else:
        assert (torch is None) == (why is not None)


class _FakeCupy:
    """What ``gpu.run`` asks of CuPy: a device to synchronize and a memory pool to empty."""

    def __init__(self):
        self.syncs = self.frees = 0
        fake = self

        class Device:
            def synchronize(self):
                fake.syncs += 1

        class Pool:
            def free_all_blocks(self):
                fake.frees += 1

        self.cuda = type("cuda", (), {"Device": Device})
        self._pool = Pool()

    def get_default_memory_pool(self):
        return self._pool


def test_run_times_each_variant_reports_failures_and_keeps_the_budget(monkeypatch):
    calls = {"a": 0}

    def fast():
        calls["a"] += 1

    def broken():
        raise RuntimeError("cuDNN graph not supported")

    def falling_back():
        warnings.warn("static_graph(step, cuda_graph=True): not replayed as a CUDA graph: the capture failed",
                      RuntimeWarning)
        return fast

    monkeypatch.setattr(gpu, "variants", lambda name, cupy, torch: {
        "kusari": lambda: fast, "kusari+cuda_graph": broken, "torch": falling_back})
    cupy, lines = _FakeCupy(), []
    rows = gpu.run(["mlp"], cupy, None, target_s=0.01, budget_s=60, out=lines.append)
    assert any(line.strip().startswith("note: static_graph(step, cuda_graph=True): not replayed")
               for line in lines)      # a fallback is said under its row
    assert [r["variant"] for r in rows] == ["kusari", "torch"]
    assert rows[0]["per_s"] == pytest.approx(100 / (rows[0]["ms"] / 1e3))
    assert any("kusari+cuda_graph" in line and "FAILED: RuntimeError: cuDNN graph not supported" in line
               for line in lines)
    assert calls["a"] > 10 and cupy.syncs > 10 and cupy.frees == 3     # a synchronized clock; memory freed
    lines.clear()
    gpu.run(["mlp", "dqn"], cupy, None, target_s=0.01, budget_s=1e-9, out=lines.append)
    assert sum("skipped: the 0 s budget is spent" in line for line in lines) >= 5


def test_the_goals_compare_with_torch():
    rows = [{"workload": "dqn", "variant": "torch", "ms": 3.0},
            {"workload": "dqn", "variant": "kusari+cuda_graph", "ms": 1.0},
            {"workload": "mlp", "variant": "torch", "ms": 1.0},
            {"workload": "mlp", "variant": "kusari+cuda_graph", "ms": 1.0},
            {"workload": "resnet50", "variant": "kusari", "ms": 100.0}]
    lines = gpu.summary(rows)
    assert "goal mlp: kusari+cuda_graph at 1.00x torch's speed (goal >= 2.0x): NOT met" in lines
    assert "goal dqn: kusari+cuda_graph at 3.00x torch's speed (goal >= 2.0x): met" in lines
    assert "goal resnet50: kusari 100.000 ms; no torch figure to compare with" in lines
    assert len(lines) == 3
