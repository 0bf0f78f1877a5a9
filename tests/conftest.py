"""Shared pytest setup: the gpu marker skips cleanly where CuPy or a GPU is missing; the real datasets'
folder (``KUSARI_TEST_DATA``)."""
import os

import pytest

# the offline copies of real datasets (mnist/, moleculenet/, raccoon/): KUSARI_TEST_DATA, by default
# ../shared/data beside the repository
TEST_DATA = os.path.abspath(os.environ.get("KUSARI_TEST_DATA")
                            or os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))


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


def _test_data(*parts: str) -> str:
    """The path of ``parts`` in the real datasets' folder; skips the test, saying why, when it is absent."""
    path = os.path.join(TEST_DATA, *parts)
    if not os.path.isdir(path):
        pytest.skip(f"needs the real datasets: {path} is not a folder (set KUSARI_TEST_DATA to the folder "
                    "holding mnist/, moleculenet/ and raccoon/; default: ../shared/data beside the repository)")
    return path


@pytest.fixture(scope="session")
def shared_data():
    """The real datasets' folder (``KUSARI_TEST_DATA``); skips the test, saying why, when it is absent."""
    return _test_data()


@pytest.fixture(scope="session")
def shared_data_folder():
    """``shared_data_folder(name)``: the real datasets' subfolder ``name`` (``'moleculenet'``); skips the
    test, saying why, when it is absent."""
    return _test_data


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
