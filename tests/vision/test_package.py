"""``import kusari.vision`` with the [vision] extra alone: pytest (a test dependency) is not needed."""
import subprocess
import sys
import textwrap


def test_import_without_pytest():
    code = textwrap.dedent("""
        import sys
        sys.modules["pytest"] = None   # `import pytest` fails, as where it is not installed
        import kusari.vision, kusari.vision.utils.testing
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok\n"
