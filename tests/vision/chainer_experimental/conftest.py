"""The sliceable datasets and make_shift are checked with dataset_parity (tests/vision)."""
import pathlib
import sys

_VISION_TESTS = str(pathlib.Path(__file__).resolve().parents[1])
if _VISION_TESTS not in sys.path:
    sys.path.insert(0, _VISION_TESTS)   # dataset_parity and the modules it shares with the fixture writer
