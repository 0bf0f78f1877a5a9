"""bench.rl: workloads are well-formed, and the summary, ratios, goal verdicts and report are computed right."""
import sys

import pytest

from bench.rl import __main__ as cli
from bench.rl import workloads


@pytest.mark.parametrize("name", workloads.WORKLOADS)
def test_each_workload_declares_what_the_report_needs(name):
    module = workloads.load(name)
    assert module.DESCRIPTION and module.ENV_ID and module.STEPS > 0
    assert "rl-baselines3-zoo" in module.SETTINGS["source"]
    for framework in workloads.FRAMEWORKS:
        assert callable(getattr(module, f"train_{framework}"))


def test_unknown_workload_is_refused():
    with pytest.raises(ValueError, match="unknown workload 'nope'"):
        workloads.load("nope")


def _run(train_s, returns):
    return {"train_s": train_s, "returns": returns, "info": {}}


def test_summary_takes_medians_of_times_and_of_per_seed_ratios():
    runs = {"dqn_cartpole": [
        {"kusari": _run(2.0, [500.0]), "sb3": _run(4.0, [480.0]), "pfrl": _run(8.0, [400.0])},
        {"kusari": _run(3.0, [400.0]), "sb3": _run(10.0, [500.0]), "pfrl": {"error": "exit 1: boom"}},
        {"kusari": _run(9.0, [300.0]), "sb3": _run(12.0, [460.0]), "pfrl": _run(6.0, [420.0])},
    ]}
    row, = cli.summarize(runs, ["kusari", "sb3", "pfrl"])
    assert row["kusari"]["train_s"] == 3.0 and row["sb3"]["train_s"] == 10.0
    assert row["kusari/sb3"] == pytest.approx(0.5)              # median of 0.5, 0.3, 0.75
    assert row["kusari/pfrl"] == pytest.approx((0.25 + 1.5) / 2)  # the failed seed drops out
    assert row["kusari"]["return"] == pytest.approx(400.0)
    assert row["pfrl"]["errors"] == ["exit 1: boom"]
    text = cli.table([row], ["kusari", "sb3", "pfrl"])
    assert text.splitlines()[-1].endswith("| yes | no |")        # 0.5 <= 0.7; 400 < 480 - 48


def test_markdown_names_the_sources_and_the_failures():
    runs = {"sac_pendulum": [{"kusari": _run(1.0, [-150.0]), "sb3": {"error": "timed out after 5 s"}}]}
    rows = cli.summarize(runs, ["kusari", "sb3"])
    text = cli.markdown(rows, ["kusari", "sb3"], {"kusari": {"kusari": "0.1"}}, 1, "python -m bench.rl")
    assert "rl-baselines3-zoo hyperparams/sac.yml" in text
    assert "sac_pendulum / sb3: timed out after 5 s" in text
    assert "| sb3 | not run |" in text


def test_markdown_lists_each_seed_with_its_ratios():
    runs = {"dqn_cartpole": [{"kusari": _run(2.0, [500.0]), "sb3": _run(4.0, [480.0])},
                             {"kusari": _run(3.0, [400.0]), "sb3": {"error": "exit 1: boom"}}]}
    rows = cli.summarize(runs, ["kusari", "sb3"])
    text = cli.markdown(rows, ["kusari", "sb3"], {}, 2, "python -m bench.rl", runs)
    assert "| dqn_cartpole | 0 | 2.0 | 4.0 | 0.500 |" in text
    assert "| dqn_cartpole | 1 | 3.0 | — | — |" in text


def test_run_one_reports_a_failing_worker_as_an_error():
    result = cli.run_one(sys.executable, "no_such_workload", "kusari", 0, 10, timeout_s=60)
    assert result["error"].startswith("exit 2")                  # argparse refuses the workload


def test_cli_refuses_bad_arguments(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--seeds", "0"])
    assert "--seeds must be >= 1" in capsys.readouterr().err
