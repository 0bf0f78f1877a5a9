"""reproductions.report: RESULTS.md rendered from result JSON files."""
import json

from reproductions import report, runner


def _result(name="vision/a", tier="full", values=(0.017, 0.019), passed=False, **extra):
    return {
        "name": name, "task": "task " + name, "tier": tier, "recipe": "recipe of " + name,
        "budget": 12000, "budget_unit": "environment steps", "options": {}, "config": {},
        "target": {"value": 0.016, "metric": "test_error", "direction": "lower", "tolerance": 0.002,
                   "citation": "Someone 2003, Table 1"},
        "bound": 0.018, "values": list(values), "mean": sum(values) / len(values), "std": 0.0014142,
        "passed": passed, "publishable": True, "wall_time_s": 600.0, "run_wall_time_s": 330.0,
        "hardware": {"cpu": "Some CPU", "cores": 2, "device": "cpu"},
        "git_commit": "0123456789abcdef", "date": "2026-01-02T03:04:05Z", **extra}


def _write(folder, results):
    folder.mkdir()
    for r in results:
        (folder / f"{runner.slug(r['name'], r['tier'])}.json").write_text(json.dumps(r))


def test_render_rows_and_sections():
    weights = {"zoo_name": "a-zoo", "file": "a-zoo.npz", "sha256": "f" * 64, "seed": 0, "value": 0.017}
    text = report.render([_result(weights=weights), _result(tier="quick", values=(0.03,), passed=True)])
    lines = text.splitlines()
    full = next(line for line in lines if line.startswith("| vision/a | full"))
    quick = next(line for line in lines if line.startswith("| vision/a | quick"))
    assert lines.index(full) < lines.index(quick)
    assert full.startswith("| vision/a | full | 12,000 environment steps | test_error |")
    assert "| 1.60% | ≤ 1.80% | 1.80% ± 0.14% (1.70%, 1.90%) | 2 | **FAIL** | 5.5 min (10.0 min) |" in full
    assert "Some CPU, 2 cores | `0123456789ab` | 2026-01-02 |" in full
    assert "| 3.00% ± 0.14% (3.00%) | 1 | pass |" in quick
    assert "- **vision/a** (task vision/a): recipe of vision/a Target: Someone 2003, Table 1" in lines
    assert text.count("recipe of vision/a") == 1
    assert f"`a-zoo` from vision/a seed 0 (test_error 1.70%): `a-zoo.npz`, sha256 `{'f' * 64}`" in text


def test_values_of_other_metrics_are_not_percentages():
    assert report.format_value(0.0123, "test_error") == "1.23%"
    assert report.format_value(0.95, "accuracy") == "95.00%"
    assert report.format_value(195.25, "mean_return") == "195.2"


def test_a_modified_tree_shows_in_the_commit():
    text = report.render([_result(git_commit="0123456789abcdef+dirty")])
    assert "| `0123456789ab+dirty` |" in text


def test_write_report_orders_by_name_and_leaves_out_unpublishable_results(tmp_path):
    _write(tmp_path / "results", [_result(name="vision/b"), _result(name="vision/a", tier="quick"),
                                  _result(name="vision/c", publishable=False)])
    out = report.write_report(str(tmp_path / "results"), str(tmp_path / "RESULTS.md"))
    text = open(out).read()
    assert text.startswith("# Reproduction results")
    assert "do not edit" in text
    assert text.index("| vision/a |") < text.index("| vision/b |")
    assert "vision/c" not in text


def test_committed_results_render_as_committed():
    """RESULTS.md is what the committed result JSON files render to (nobody edited it by hand)."""
    with open(report.DEFAULT_REPORT) as f:
        assert f.read() == report.render(report.load_results(report.DEFAULT_RESULTS))
