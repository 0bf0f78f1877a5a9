"""The experimental models' tests share the comparisons with ChainerCV's fixtures of tests/vision/links:
this runs that folder's conftest, which makes them importable."""
import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location(
    "vision_links_conftest", pathlib.Path(__file__).parents[1] / "links" / "conftest.py")
_spec.loader.exec_module(importlib.util.module_from_spec(_spec))
