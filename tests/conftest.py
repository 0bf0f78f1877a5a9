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


class _Resolved(Exception):
    """Raised by :func:`resolved_key`'s stand-in for the zoo's ``weights_path``."""


@pytest.fixture
def resolved_key(monkeypatch):
    """``resolve(make)``: calls ``make`` and stops it when it asks the model zoo for a weight file;
    returns the zoo key it asked for (no download, no file)."""
    from kusari.model_zoo import registry

    def weights_path(name):
        raise _Resolved(name)

    monkeypatch.setattr(registry, "weights_path", weights_path)

    def resolve(make):
        with pytest.raises(_Resolved) as info:
            make()
        return info.value.args[0]
    return resolve
