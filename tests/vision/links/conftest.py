"""Makes the comparisons with ChainerCV's fixtures that the link and model tests share importable:
classification_parity.py as ``vision_classification_parity``, single_shot_parity.py (SSD, YOLO) as
``vision_single_shot_parity`` and segmentation_parity.py as ``vision_segmentation_parity`` (tests are not
on sys.path under importlib mode)."""
import importlib.util
import pathlib
import sys

if importlib.util.find_spec("cv2") is not None:   # else tests/vision/conftest.py skips these tests
    for _name in ("classification_parity", "single_shot_parity", "segmentation_parity"):
        if f"vision_{_name}" in sys.modules:
            continue
        _spec = importlib.util.spec_from_file_location(f"vision_{_name}",
                                                       pathlib.Path(__file__).with_name(f"{_name}.py"))
        _module = importlib.util.module_from_spec(_spec)
        sys.modules[_spec.name] = _module
        _spec.loader.exec_module(_module)
