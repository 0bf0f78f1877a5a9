import pytest

from bench import __main__ as cli
from bench import workloads


def parse(*argv):
    return cli.build_parser().parse_args(list(argv))


def test_frameworks_are_checked():
    assert cli.parse_frameworks("kusari, torch") == ["kusari", "torch"]
    with pytest.raises(ValueError, match="--frameworks got 'kusari,jax'"):
        cli.parse_frameworks("kusari,jax")


def test_quick_defaults_yield_to_explicit_options():
    quick = cli.settings_from(parse("--quick", "--rounds", "2"))
    assert (quick.rounds, quick.target_s, quick.warmup) == (2, cli.QUICK["target_s"], cli.QUICK["warmup"])
    full = cli.settings_from(parse("--set", "lstm_lm.bptt=5"))
    assert (full.rounds, full.target_s, full.warmup) == (3, 0.5, 3)
    assert full.overrides == ("lstm_lm.bptt=5",)
    with pytest.raises(ValueError, match="--rounds"):
        cli.settings_from(parse("--rounds", "0"))


def test_only_a_full_run_of_everything_writes_results_md_by_default(tmp_path):
    everything = list(workloads.WORKLOADS)
    assert cli.output_path(parse(), everything) == cli.DEFAULT_OUTPUT
    assert cli.output_path(parse("--quick"), everything) is None
    assert cli.output_path(parse("dqn"), ["dqn"]) is None
    assert cli.output_path(parse("--quick", "--output", str(tmp_path / "r.md")), ["dqn"]) == tmp_path / "r.md"


def test_list_prints_every_workload(capsys):
    assert cli.main(["--list"]) == 0
    out = capsys.readouterr().out
    assert [line.split(":")[0] for line in out.splitlines()] == list(workloads.WORKLOADS)
    assert "lstm_lm: LSTM LM step" in out and "'bptt': 35" in out


@pytest.mark.parametrize("argv, message", [(["nope"], "unknown workload 'nope'"),
                                           (["--set", "dqn.depth=3"], "'dqn' has no parameter 'depth'")])
def test_bad_arguments_exit_with_usage(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
