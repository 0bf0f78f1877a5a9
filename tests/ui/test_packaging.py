"""kusari.ui's packaging: ``import kusari`` loads no web stack; without the [ui] extra, importing kusari.ui
says what to install; ``python -m kusari.ui`` is the command line."""
import subprocess
import sys
import textwrap

WEB_STACK = ("starlette", "uvicorn", "sqlalchemy", "alembic", "kusari.ui")


def _run(code: str, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args, "-c", textwrap.dedent(code)] if code else [sys.executable, *args],
                          capture_output=True, text=True, timeout=120)


def test_import_kusari_loads_no_web_stack():
    result = _run(f"""
        import sys
        import kusari, kusari.training, kusari.training.extensions
        print(sorted(m for m in {WEB_STACK!r} if m in sys.modules))
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "[]\n"


def test_import_without_the_extra_names_it():
    # kusari.ui looks its dependencies up with find_spec: hiding one there is SQLAlchemy not installed
    result = _run("""
        import importlib.util, sys
        real = importlib.util.find_spec
        importlib.util.find_spec = lambda name, *a: None if name == "sqlalchemy" else real(name, *a)
        try:
            import kusari.ui
        except ImportError as e:
            print(e)
    """)
    assert result.returncode == 0, result.stderr
    assert "sqlalchemy" in result.stdout and "pip install 'kusari[ui]'" in result.stdout


def test_python_m_kusari_ui_is_the_command_line(tmp_path):
    url = f"sqlite:///{tmp_path / 'ui.sqlite'}"
    result = _run("", "-m", "kusari.ui", "--db", url, "db", "create")
    assert result.returncode == 0, result.stderr
    assert "newest schema" in result.stdout
    assert (tmp_path / "ui.sqlite").is_file()
    result = _run("", "-m", "kusari.ui", "--help")
    assert result.returncode == 0 and "project" in result.stdout and "server" in result.stdout


def test_the_kusari_ui_console_script_is_the_command_line(tmp_path):
    import os
    import shutil
    from importlib.metadata import entry_points
    (script,) = entry_points(group="console_scripts", name="kusari-ui")
    assert script.value == "kusari.ui.cli:main"
    path = shutil.which("kusari-ui", path=os.path.dirname(sys.executable))
    assert path, f"kusari-ui is not installed beside {sys.executable}: pip install -e '.[ui]'"
    result = subprocess.run([path, "--db", f"sqlite:///{tmp_path / 'ui.sqlite'}", "db", "upgrade"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "newest schema" in result.stdout, result.stderr
