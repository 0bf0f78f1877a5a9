"""tools/check_public_imports.py: private kusari names outside the core are found, public ones pass."""
import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("check_public_imports", ROOT / "tools" / "check_public_imports.py")
lint = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lint)


@pytest.mark.parametrize("source, name", [
    ("import kusari._tracing", "kusari._tracing"),
    ("import kusari.functions._x as y", "kusari.functions._x"),
    ("from kusari import _backprop", "kusari._backprop"),
    ("from kusari.variable import _new_variable", "kusari.variable._new_variable"),
    ("from kusari.serializers._atomic import open_for_write", "kusari.serializers._atomic.open_for_write"),
    ("import kusari\nkusari.variable._new_variable(1, False)", "kusari.variable._new_variable"),
    ("import kusari.functions as F\nF._private_helper", "kusari.functions._private_helper"),
    ("from kusari import utils\nutils._SCALARS.clear()", "kusari.utils._SCALARS.clear"),
])
def test_private_names_are_reported(source, name):
    assert [found for _, found in lint.private_uses(source)] == [name]


@pytest.mark.parametrize("source", [
    "import kusari\nimport kusari.functions as F\nfrom kusari import links as L, utils",
    "from kusari.utils import file_sha256\nimport kusari\nkusari.Variable.__init__",
    "import numpy\nnumpy._core.multiarray",          # not kusari
    "from ._local import helper\nself._cache",        # relative imports and non-kusari attributes
])
def test_public_names_pass(source):
    assert lint.private_uses(source) == []


def test_a_domain_may_use_its_own_private_modules_but_not_the_cores():
    source = "from kusari.rl.policies._checks import check\nfrom kusari import _backprop\n"
    assert lint.private_uses(source, own_package="kusari.rl") == [(2, "kusari._backprop")]
    assert [name for _, name in lint.private_uses(source, own_package="kusari.chem")] == [
        "kusari.rl.policies._checks.check", "kusari._backprop"]


def test_main_reports_files_and_exit_code(tmp_path, capsys):
    (tmp_path / "ok.py").write_text("import kusari\n")
    assert lint.main([str(tmp_path)]) == 0
    (tmp_path / "bad.py").write_text("import os\nfrom kusari import _backprop\n")
    assert lint.main([str(tmp_path)]) == 1
    assert f"{tmp_path / 'bad.py'}:2: kusari._backprop" in capsys.readouterr().out


def test_the_repository_passes():
    assert lint.check([ROOT / folder for folder in lint.DEFAULT_FOLDERS]) == []
