"""python -m reproductions: list, argument errors, the clean-tree rule, report."""
import pytest

from reproductions import catalog
from reproductions.__main__ import main


def test_list_shows_both_mnist_reproductions(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "vision/mnist_mlp: " in out and "vision/mnist_lenet5: " in out
    assert "target test_error 0.016" in out and "target test_error 0.0095" in out
    assert "tiers: quick (1 epochs), full (20 epochs)" in out


def test_list_shows_unavailable_reproductions_with_their_extra(capsys, monkeypatch):
    available = catalog.all_reproductions()
    monkeypatch.setattr(catalog, "discover", lambda: (available, {"rl/dqn_cartpole": "needs the 'gymnasium' "
                                                                  "module: pip install -e '.[rl]'"}))
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "rl/dqn_cartpole: unavailable, needs the 'gymnasium' module: pip install -e '.[rl]'" in out
    assert "vision/mnist_mlp: " in out


def test_unknown_reproduction_lists_the_known_ones(capsys):
    with pytest.raises(SystemExit) as info:
        main(["run", "vision/nope"])
    assert info.value.code == 2
    assert "unknown reproduction 'vision/nope'; known: " in capsys.readouterr().err


def test_bad_seeds_and_tier(capsys):
    with pytest.raises(SystemExit):
        main(["run", "vision/mnist_mlp", "--seeds", "0"])
    assert "--seeds must be >= 1, got 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run", "vision/mnist_mlp", "--tier", "huge"])
    assert "invalid choice: 'huge'" in capsys.readouterr().err


def test_full_run_on_a_modified_tree_is_refused(capsys, dirty_tree, tmp_path):
    with pytest.raises(SystemExit) as info:
        main(["run", "vision/mnist_mlp", "--tier", "full", "--out", str(tmp_path), "--work", str(tmp_path)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "the full tier records the commit it ran at" in err and "--allow-dirty" in err
    assert list(tmp_path.iterdir()) == []


def test_report_command(tmp_path, capsys):
    (tmp_path / "results").mkdir()
    assert main(["report", "--results", str(tmp_path / "results"), "--output", str(tmp_path / "R.md")]) == 0
    assert (tmp_path / "R.md").read_text().startswith("# Reproduction results")
