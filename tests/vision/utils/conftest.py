"""The ChainerCV fixture reader for the utility tests."""
import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location("vision_chainercv_npz",
                                               pathlib.Path(__file__).resolve().parents[1] / "chainercv_npz.py")
chainercv_npz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chainercv_npz)


@pytest.fixture(scope="session")
def utils_fixture():
    """tools/chainercv_fixtures/utils_bbox_mask.py's output."""
    return chainercv_npz.Fixture("utils_bbox_mask")
