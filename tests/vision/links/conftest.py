"""Makes classification_parity.py, the comparison with ChainerCV's fixtures that the link and model tests
share, importable as ``vision_classification_parity`` (tests are not on sys.path under importlib mode)."""
import importlib.util
import pathlib
import sys

if importlib.util.find_spec("cv2") is not None:   # else tests/vision/conftest.py skips these tests
    _spec = importlib.util.spec_from_file_location(
        "vision_classification_parity", pathlib.Path(__file__).with_name("classification_parity.py"))
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = _module
    _spec.loader.exec_module(_module)
