"""Download fixtures for tests/core/datasets, defined once in tests/core/dataset/download_fixtures.py."""
import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location(
    "kusari_tests_download_fixtures",
    pathlib.Path(__file__).parents[1] / "dataset" / "download_fixtures.py")
_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixtures)

dataset_root = _fixtures.dataset_root
http_server = _fixtures.http_server
no_internet = _fixtures.no_internet


@pytest.fixture
def mirror(tmp_path, monkeypatch):
    """``mirror({relative path: bytes})`` writes files into a folder that KUSARI_DOWNLOAD_MIRROR names."""
    folder = tmp_path / "mirror"
    folder.mkdir()

    def write(files):
        _fixtures.file_tree(folder, files)
        monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", str(folder))
        return folder
    return write
