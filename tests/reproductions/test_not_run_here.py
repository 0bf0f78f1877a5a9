"""A tier whose data or hardware is absent (the train step raises NotRunHere): the runner records it
with its reason and no number, RESULTS.md shows "not run here", the command line exits with 2."""
import json

from reproductions import __main__ as cli
from reproductions import catalog, report, runner
from reproductions.spec import NotRunHere, Reproduction, Target, Tier


def _train(tier, seed, work_dir):
    if tier.options.get("absent"):
        raise NotRunHere("VOC 2007 is not at /nowhere/voc, and no GPU")
    return 0.25


REPRO = Reproduction(
    name="toy/absent", task="a toy", target=Target(0.7, "map", "higher", 0.01, "Someone, 2017, Table 1"),
    budget_unit="iterations",
    tiers={"quick": Tier(budget=1), "full": Tier(budget=70000, options={"absent": True})},
    train=_train, evaluate=lambda artifact, tier, seed: artifact, recipe="toy recipe.")


def test_a_tier_not_run_here_is_recorded_with_its_reason_and_no_number(tmp_path, clean_tree):
    result = runner.run(REPRO, "full", seeds=3, out=str(tmp_path / "out"), work=str(tmp_path / "work"))
    assert result["not_run"] == "VOC 2007 is not at /nowhere/voc, and no GPU"
    assert result["values"] == [] and "mean" not in result and "passed" not in result
    with open(runner.result_path(str(tmp_path / "out"), "toy/absent", "full")) as f:
        assert json.load(f) == result
    text = open(report.write_report(str(tmp_path / "out"), str(tmp_path / "RESULTS.md"))).read()
    row = next(line for line in text.splitlines() if line.startswith("| toy/absent |"))
    assert row.startswith("| toy/absent | full | 70,000 iterations | map | 0.7 | ≥ 0.69 "
                          "| not run here: VOC 2007 is not at /nowhere/voc, and no GPU | 0 | not run here | – |")
    assert f"`{clean_tree[:12]}`" in row
    assert "Someone, 2017, Table 1" in text

    # the tier that can run still measures
    measured = runner.run(REPRO, "quick", seeds=1, out=str(tmp_path / "out"), work=str(tmp_path / "work"))
    assert measured["values"] == [0.25] and measured["passed"] is False


def test_the_command_line_says_not_run_here_and_exits_with_2(tmp_path, clean_tree, monkeypatch, capsys):
    monkeypatch.setattr(catalog, "get", lambda name: REPRO)
    code = cli.main(["run", "toy/absent", "--tier", "full", "--out", str(tmp_path / "out"),
                     "--work", str(tmp_path / "work")])
    assert code == 2
    assert "toy/absent [full]: not run here: VOC 2007 is not at /nowhere/voc" in capsys.readouterr().err

