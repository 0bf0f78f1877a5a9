"""Makes tests/vision/links/single_shot_parity.py (the comparison of SSD and YOLO with ChainerCV's fixtures)
importable as ``vision_single_shot_parity`` for the experimental models' tests too."""
import importlib.util
import pathlib
import sys

if importlib.util.find_spec("cv2") is not None and "vision_single_shot_parity" not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        "vision_single_shot_parity", pathlib.Path(__file__).parents[1] / "links" / "single_shot_parity.py")
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = _module
    _spec.loader.exec_module(_module)
