"""Fixtures of the dataset tests: the synthetic layouts of the ChainerCV fixture, an isolated dataset root, a
loopback HTTP server, and no internet (tests/core/dataset/download_fixtures.py)."""
import importlib.util
import pathlib
import sys

import pytest

_VISION_TESTS = str(pathlib.Path(__file__).resolve().parents[1])
if _VISION_TESTS not in sys.path:
    sys.path.insert(0, _VISION_TESTS)   # dataset_parity and the modules it shares with the fixture writer

import dataset_parity  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "kusari_tests_download_fixtures",
    pathlib.Path(__file__).resolve().parents[2] / "core" / "dataset" / "download_fixtures.py")
_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixtures)
dataset_root = _fixtures.dataset_root
http_server = _fixtures.http_server
no_internet = _fixtures.no_internet


@pytest.fixture(scope="session")
def layouts(tmp_path_factory):
    """The folder of the synthetic layouts (shared by the session: copy a layout before changing it)."""
    return dataset_parity.write_layouts(tmp_path_factory.mktemp("layouts"))


@pytest.fixture
def mirror(tmp_path, http_server, dataset_root, monkeypatch):
    """A loopback server that KUSARI_DOWNLOAD_MIRROR names, serving the folder ``mirror.folder`` (write the
    archives there), with an empty dataset root; ``mirror.hits`` lists the requests."""
    folder = tmp_path / "served"
    folder.mkdir()
    server = http_server(folder)
    server.folder = folder
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", server.url)
    return server
