"""Makes fpn_parity.py, the reading of ChainerCV's FPN fixtures that these tests share, importable as
``vision_fpn_parity`` (tests are not on sys.path under importlib mode)."""
import importlib.util
import pathlib
import sys

if importlib.util.find_spec("cv2") is not None:   # else tests/vision/conftest.py skips these tests
    _spec = importlib.util.spec_from_file_location("vision_fpn_parity",
                                                   pathlib.Path(__file__).with_name("fpn_parity.py"))
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = _module
    _spec.loader.exec_module(_module)
