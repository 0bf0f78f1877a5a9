"""Shared pytest setup: the gpu marker skips cleanly where CuPy or a GPU is missing."""
import os

import pytest

SHARED_DATA = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))


def _gpu_available() -> bool:
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    if any("gpu" in item.keywords for item in items) and not _gpu_available():
        skip = pytest.mark.skip(reason="needs CuPy and a CUDA GPU")
        for item in items:
            if "gpu" in item.keywords:
                item.add_marker(skip)


@pytest.fixture
def shared_data():
    """Path of ../shared/data (the offline copies of real datasets); skips if absent."""
    if not os.path.isdir(SHARED_DATA):
        pytest.skip("../shared/data is not present")
    return SHARED_DATA
