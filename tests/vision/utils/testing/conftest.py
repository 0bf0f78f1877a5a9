"""One test per ChainerCV call recorded for the function(s) a test module names (tests/vision/chainercv_cases.py)."""
import importlib.util
import pathlib
import sys

_spec = importlib.util.spec_from_file_location(
    "vision_chainercv_cases", pathlib.Path(__file__).resolve().parents[2] / "chainercv_cases.py")
chainercv_cases = sys.modules.setdefault(_spec.name, importlib.util.module_from_spec(_spec))
if not hasattr(chainercv_cases, "replay"):
    _spec.loader.exec_module(chainercv_cases)
pytest_generate_tests = chainercv_cases.pytest_generate_tests
