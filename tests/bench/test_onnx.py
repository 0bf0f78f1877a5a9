"""bench.onnx: one measured row on a small model, and the report's goals and notes."""
import numpy
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import kusari  # NOQA: E402
import kusari.functions as F  # NOQA: E402
import kusari.links as L  # NOQA: E402
from bench.onnx import __main__ as bench_onnx  # NOQA: E402


def test_measure_quantizes_and_scores_both_files(tmp_path):
    rng = numpy.random.default_rng(0)
    model = kusari.Sequential(L.Linear(16, 64), F.relu, L.Linear(64, 3))
    x = rng.standard_normal((50, 16)).astype(numpy.float32)
    with kusari.using_config("train", False):
        labels = model(x).array.argmax(axis=1)
    row = bench_onnx.measure("tiny", "dynamic, per-tensor", model, x[:2], None, bench_onnx.mnist_score(x, labels),
                             0.01, str(tmp_path))
    assert row.fp32_value == 100.0 and row.int8_value >= 90.0
    assert row.int8_bytes < row.fp32_bytes and row.fp32_ms > 0 and row.int8_ms > 0


def test_report_states_goals_vnni_and_shared_machine():
    rows = [bench_onnx.Row("lenet5", "static", 4000, 1000, 1.0, 0.5, "MNIST test accuracy, %", 99.0, 98.5),
            bench_onnx.Row("mlp", "dynamic", 3000, 1000, 1.0, 2.0, "MNIST test accuracy, %", 98.0, 97.9)]
    text = bench_onnx.report(rows, quick=False)
    assert "VNNI:" in text and "shared" in text
    assert "| 4.00x met |" in text and "+0.50 missed |" in text
    assert "| 3.00x missed |" in text and "+0.10 met |" in text
    assert "lenet5 (static): 4.00x smaller, 1.14 of the 3.5x goal; +0.50 points lost, against the 0.3-point goal" in text


def test_unknown_model_is_refused():
    with pytest.raises(SystemExit):
        bench_onnx.main(["--models", "alexnet"])
