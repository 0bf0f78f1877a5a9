from bench import report, runner


def make_result():
    result = runner.RunResult(["add_1elem", "mlp_tiny"], ["kusari", "torch", "chainer"], runner.Settings(rounds=3))
    result.samples = {"add_1elem": {"kusari": [4.0, 3.0, 100.0], "torch": [2.0, 2.0, 2.0], "chainer": [12.0]},
                      "mlp_tiny": {"kusari": [1500.0], "torch": [1000.0]}}
    result.errors = {"mlp_tiny": {"chainer": "ImportError: no chainer"}}
    result.info = {"kusari": {"kusari": "0.1", "numpy": "2.4", "threads": "OMP_NUM_THREADS=1"}}
    return result


def test_medians_are_over_rounds():
    assert report.medians(make_result())["add_1elem"] == {"kusari": 4.0, "torch": 2.0, "chainer": 12.0}


def test_number_formats():
    assert report.format_us(1234.6) == "1,235"
    assert report.format_us(3.14159) == "3.14"
    assert report.format_us(None) == "—"
    assert report.format_ratio(3.0, 2.0) == "1.50"
    assert report.format_ratio(None, 2.0) == report.format_ratio(1.0, 0.0) == "—"


def test_ratios_pair_the_frameworks_of_each_round():
    # Round medians drift together: pairing within rounds sees a ratio of 1, separate medians 10.
    assert report.paired_ratio([1.0, 10.0, 10.0], [1.0, 10.0, 1.0]) == 1.0
    assert report.paired_ratio([4.0, 3.0, 100.0], [12.0]) == 4.0 / 12.0  # rounds do not pair: medians
    assert report.paired_ratio([], [1.0]) is None and report.paired_ratio([1.0], None) is None


def test_table_has_times_and_ratios_and_dashes_for_failures():
    lines = report.table(make_result()).splitlines()
    assert lines[0] == "| workload | kusari µs | torch µs | chainer µs | kusari/torch | kusari/chainer |"
    assert lines[2] == "| tracked `x + x`, 1 element, forward | 4.00 | 2.00 | 12.00 | 2.00 | 0.33 |"
    assert lines[3] == "| MLP 16-16-16-4, batch 1, SGD train step | 1,500 | 1,000 | — | 1.50 | — |"


def test_table_without_kusari_has_no_ratio_columns():
    result = make_result()
    result.frameworks = ["torch"]
    assert report.table(result).splitlines()[0] == "| workload | torch µs |"


def test_notes_name_missing_frameworks_and_failures():
    result = make_result()
    result.missing = {"chainer": "python3.11 was not found"}
    assert report.notes(result) == ["chainer is missing: python3.11 was not found",
                                    "mlp_tiny on chainer failed: ImportError: no chainer"]


def test_markdown_has_machine_versions_results_and_parameters():
    result = make_result()
    result.settings = runner.Settings(rounds=3, overrides=("mlp_tiny.batch=2",))
    text = report.markdown(result, {"CPU": "Test CPU 3000"}, "python -m bench")
    assert "- CPU: Test CPU 3000" in text
    assert "| kusari | kusari 0.1, numpy 2.4 | OMP_NUM_THREADS=1 |" in text
    assert "| torch | not run |  |" in text
    assert report.table(result) in text
    assert "- mlp_tiny on chainer failed: ImportError: no chainer" in text
    assert "Parameters: batch=2." in text
    assert "`add_1elem`: Tracked ``x + x`` on a 1-element float32 array" in text


def test_rounds_table_lists_each_rounds_median():
    lines = report.rounds_table(make_result()).splitlines()
    assert lines[0] == "| workload | kusari | torch | chainer |"
    assert lines[2] == "| add_1elem | 4.00 / 3.00 / 100 | 2.00 / 2.00 / 2.00 | 12.00 |"
    assert lines[3] == "| mlp_tiny | 1,500 | 1,000 | — |"
