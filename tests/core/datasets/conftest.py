"""Download fixtures for tests/core/datasets, defined once in tests/core/dataset/download_fixtures.py."""
import gzip
import importlib.util
import pathlib

import numpy
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


def _idx_gz(array, shape=None) -> bytes:
    header = bytes([0, 0, 0x08, len(shape or array.shape)])
    header += b"".join(int(n).to_bytes(4, "big") for n in (shape or array.shape))
    return gzip.compress(header + numpy.asarray(array, dtype=numpy.uint8).tobytes())


@pytest.fixture
def idx_gz():
    """``idx_gz(array, shape=None)``: a gzipped IDX file of unsigned bytes, written from the format's
    description (magic 0x00000803-style header, big-endian dimensions); ``shape`` overrides the
    header's dimensions to make malformed files."""
    return _idx_gz
