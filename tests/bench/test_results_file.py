"""bench.results_file: each benchmark command rewrites only its own section of RESULTS.md."""
from bench import results_file


def test_sections_are_added_then_replaced_in_place(tmp_path):
    path = tmp_path / "RESULTS.md"
    results_file.write_section(path, "core", "# core v1\n")
    results_file.write_section(path, "rl", "## rl v1\n")
    results_file.write_section(path, "core", "# core v2\nmore\n")
    text = path.read_text()
    assert "core v1" not in text and "# core v2\nmore" in text and "## rl v1" in text
    assert text.index("core v2") < text.index("rl v1")          # replaced where it was
    results_file.write_section(path, "rl", "## rl v2\n")
    assert path.read_text().count("<!-- section rl: begin -->") == 1
    assert "rl v1" not in path.read_text() and "rl v2" in path.read_text()
    assert list(tmp_path.iterdir()) == [path]                   # no temporary file left
