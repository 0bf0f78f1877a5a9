import os

from bench import runner
from bench.machine import REPO_ROOT


def test_round_order_rotates_so_each_framework_takes_each_position():
    frameworks = ["kusari", "torch", "chainer"]
    orders = [runner.round_order(frameworks, r) for r in range(3)]
    assert orders == [["kusari", "torch", "chainer"], ["torch", "chainer", "kusari"], ["chainer", "kusari", "torch"]]
    assert runner.round_order([], 2) == []


def test_worker_environment_pins_one_thread_and_finds_bench(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    env = runner.worker_environment(runner.Settings(environment=(("OPENBLAS_CORETYPE", "SkylakeX"),)))
    assert [env[name] for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")] == ["1"] * 3
    assert env["PYTHONPATH"].split(os.pathsep) == [str(REPO_ROOT), "/elsewhere"]
    assert env["OPENBLAS_CORETYPE"] == "SkylakeX"


def test_worker_command_passes_settings_and_overrides():
    settings = runner.Settings(target_s=0.25, warmup=2, overrides=("lstm_lm.bptt=5",))
    command = runner.worker_command("py", "torch", ["lstm_lm", "dqn"], settings, "out.json")
    assert command[:3] == ["py", "-m", "bench.worker"]
    text = " ".join(command)
    for part in ("--framework torch", "--workloads lstm_lm,dqn", "--target-s 0.25", "--warmup 2",
                 "--out out.json", "--set lstm_lm.bptt=5"):
        assert part in text


def test_record_keeps_samples_per_round_and_errors():
    result = runner.RunResult(["a", "b"], ["kusari"], runner.Settings())
    result.record("kusari", {"info": {"kusari": "1"}, "results": {"a": {"us": 2.0}, "b": {"error": "E"}}})
    result.record("kusari", {"info": {"kusari": "1"}, "results": {"a": {"us": 3.0}, "b": {"error": "E"}}})
    assert result.samples == {"a": {"kusari": [2.0, 3.0]}}
    assert result.errors == {"b": {"kusari": "E"}}
    result.record_failure("kusari", "crashed")
    assert result.errors == {"a": {"kusari": "crashed"}, "b": {"kusari": "crashed"}}


def test_run_reports_missing_framework_and_crashed_worker(monkeypatch):
    def ensure(framework, log):
        if framework == "chainer":
            raise runner.environments.EnvironmentUnavailable("python3.11 was not found")
        return "python-" + framework

    def run_worker(python, framework, workloads, settings):
        if framework == "torch":
            raise RuntimeError("the torch worker exited with code 1")
        return {"info": {}, "results": {name: {"us": 1.0} for name in workloads}}

    monkeypatch.setattr(runner.environments, "ensure", ensure)
    monkeypatch.setattr(runner, "run_worker", run_worker)
    result = runner.run(["add_1elem"], ["kusari", "torch", "chainer"], runner.Settings(rounds=2), log=lambda _: None)
    assert result.missing == {"chainer": "python3.11 was not found"}
    assert result.samples == {"add_1elem": {"kusari": [1.0, 1.0]}}
    assert result.errors == {"add_1elem": {"torch": "the torch worker exited with code 1"}}
