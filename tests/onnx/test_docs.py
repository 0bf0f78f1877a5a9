"""docs/onnx.md's coverage table is kusari.onnx.coverage()'s, and its figures name where they were measured."""
import os
import re

from kusari.onnx.converters import coverage_markdown

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "onnx.md")


def test_coverage_table_is_current():
    text = open(DOC, encoding="utf-8").read()
    table = re.search(r"<!-- coverage: begin -->\n(.*?)<!-- coverage: end -->", text, flags=re.S).group(1)
    assert table == coverage_markdown(), "regenerate docs/onnx.md's table with coverage_markdown()"


def test_quantization_figures_point_to_the_bench():
    text = open(DOC, encoding="utf-8").read()
    assert "python -m bench.onnx" in text and "bench/RESULTS.md" in text
