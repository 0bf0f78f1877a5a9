"""The user documentation stays true: every ```python block of every docs/*.md page runs.

The blocks of one page share one namespace and run in order, in a fresh temporary working
directory (snapshots and logs written by the examples land there). The namespace is a module
registered in ``sys.modules``, as a test module's is, so decorators such as
``testing.parameterize`` that add classes to their module work in the examples.
"""
import glob
import os
import re
import sys
import types

import numpy
import pytest

import kusari

DOCS = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "docs"))
PAGES = sorted(glob.glob(os.path.join(DOCS, "*.md")))
PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", flags=re.S)
LINK = re.compile(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)")
# The pages this test guards; api_coverage.md is generated and differences.md is kept by hand elsewhere.
GUIDES = ["index.md", "porting_from_chainer.md", "concepts.md", "writing_functions.md",
          "links_and_optimizers.md", "training.md", "static_graph.md", "performance.md", "testing.md"]


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("path", PAGES, ids=os.path.basename)
def test_python_blocks_run(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("KUSARI_DOWNLOAD_MIRROR", "KUSARI_DATASET_ROOT"):
        monkeypatch.setenv(name, "")        # records the original value, restored afterwards
        monkeypatch.delenv(name)
    numpy.random.seed(0)
    module = types.ModuleType("kusari_docs_" + os.path.basename(path)[:-3])
    monkeypatch.setitem(sys.modules, module.__name__, module)
    try:
        text = _read(path)
        for match in PYTHON_BLOCK.finditer(text):
            # pad with blank lines so that a traceback names the line of the .md file
            source = "\n" * text.count("\n", 0, match.start(1)) + match.group(1)
            exec(compile(source, path, "exec"), module.__dict__)
    finally:
        kusari.dataset.set_dataset_root(None)


@pytest.mark.parametrize("name", GUIDES)
def test_guide_exists_and_opens_with_one_summary_line(name):
    path = os.path.join(DOCS, name)
    assert os.path.isfile(path), f"docs/{name} is missing"
    lines = _read(path).splitlines()
    assert lines[0].startswith("# "), f"docs/{name} must open with a '# ' title"
    assert lines[1] == "", f"docs/{name}: a blank line must follow the title"
    assert lines[2] and not lines[2].startswith(("#", "-", "|", "`")), \
        f"docs/{name}: the line after the title must be a one-line summary of the page"
    assert lines[3] == "", f"docs/{name}: the summary must be a single line"


def test_guides_have_examples():
    for name in GUIDES:
        if name != "index.md":
            assert PYTHON_BLOCK.search(_read(os.path.join(DOCS, name))), f"docs/{name} has no example"


def test_index_links_every_guide():
    linked = set(LINK.findall(_read(os.path.join(DOCS, "index.md"))))
    missing = [name for name in GUIDES + ["differences.md", "api_coverage.md"]
               if name != "index.md" and name not in linked]
    assert not missing, f"docs/index.md does not link to {missing}"


@pytest.mark.parametrize("path", PAGES, ids=os.path.basename)
def test_relative_links_resolve(path):
    for target in LINK.findall(_read(path)):
        if "://" in target:
            continue
        resolved = os.path.normpath(os.path.join(os.path.dirname(path), target))
        assert os.path.exists(resolved), f"{os.path.basename(path)} links to missing {target}"


# What an example needing a GPU or the network would contain (a GPU device, a dataset download).
BANNED = re.compile(r"import cupy|@cupy:\d|cuda:\d|to_gpu\(|get_device\(\d|urlopen|"
                    r"get_(mnist|fashion_mnist|kuzushiji_mnist|cifar10|cifar100|svhn|ptb_words)\(")


def test_no_gpu_or_network_in_examples():
    for path in PAGES:
        for block in PYTHON_BLOCK.findall(_read(path)):
            found = BANNED.search(block)
            assert found is None, f"{os.path.basename(path)}: an example uses {found.group(0)!r}"
