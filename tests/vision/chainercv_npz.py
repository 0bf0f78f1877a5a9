"""Reading the npz fixtures the ChainerCV writers store (tools/chainercv_fixtures/): per-image lists as
``<key>/<i>`` entries with ``<key>/n``, per-class lists that may hold None with ``<key>/none`` too."""
import pathlib

import numpy

FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"


class Fixture:
    """An npz fixture of tests/vision/fixtures, read whole."""

    def __init__(self, name: str):
        with numpy.load(FIXTURES / f"{name}.npz") as data:
            self._data = {key: data[key] for key in data.files}

    def __getitem__(self, key):
        return self._data[key]

    def keys(self, prefix: str) -> list:
        """What follows ``prefix/`` in the keys that start with it (e.g. the result keys of a COCO case)."""
        return sorted({key[len(prefix) + 1:] for key in self._data if key.startswith(prefix + "/")})

    def list(self, key: str) -> list:
        return [self._data[f"{key}/{i}"] for i in range(int(self._data[f"{key}/n"]))]

    def classes(self, key: str) -> list:
        none = set(self._data[f"{key}/none"].tolist())
        return [None if l in none else self._data[f"{key}/{l}"] for l in range(int(self._data[f"{key}/n"]))]
