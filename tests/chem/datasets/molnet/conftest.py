"""Download fixtures for the MoleculeNet tests, defined once in tests/core/dataset/download_fixtures.py."""
import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location(
    "kusari_tests_download_fixtures",
    pathlib.Path(__file__).parents[3] / "core" / "dataset" / "download_fixtures.py")
_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixtures)

dataset_root = _fixtures.dataset_root
http_server = _fixtures.http_server
no_internet = _fixtures.no_internet
