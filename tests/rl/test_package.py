"""``import kusari.rl``: the PFRL-named subpackages, no torch, and the extra-naming ImportError."""
import subprocess
import sys
import textwrap


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True)


def test_import_exposes_pfrl_modules_without_torch():
    result = _run("""
        import sys
        import kusari.rl
        names = ["explorers", "replay_buffers", "utils", "explorer", "replay_buffer", "collections"]
        import kusari.rl.explorer, kusari.rl.replay_buffer
        assert all(hasattr(kusari.rl, n) for n in names)
        assert "torch" not in sys.modules, "kusari.rl imported torch"
        print("ok")
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_import_without_gymnasium_names_the_extra():
    result = _run("""
        import importlib.util
        real = importlib.util.find_spec
        importlib.util.find_spec = lambda name, *a: None if name == "gymnasium" else real(name, *a)
        try:
            import kusari.rl
        except ImportError as e:
            print(e)
    """)
    assert result.returncode == 0, result.stderr
    assert "kusari[rl]" in result.stdout and "gymnasium" in result.stdout
