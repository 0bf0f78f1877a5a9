"""Agg backend and the ChainerCV fixture reader for the extension tests."""
import importlib.util
import pathlib

import matplotlib
import pytest

matplotlib.use("Agg")

_spec = importlib.util.spec_from_file_location("vision_chainercv_npz",
                                               pathlib.Path(__file__).resolve().parents[1] / "chainercv_npz.py")
chainercv_npz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chainercv_npz)


@pytest.fixture(scope="session")
def extensions_fixture():
    """tools/chainercv_fixtures/extensions.py's output."""
    return chainercv_npz.Fixture("extensions")
