"""save_json / load_json with NumPy values, written atomically."""
import os
from pathlib import PurePosixPath, PureWindowsPath

import numpy
import pytest
from kusari.chem.utils import load_json, save_json


def test_round_trip_with_numpy_values(tmp_path):
    path = tmp_path / "params.json"
    save_json(str(path), {"n": numpy.int64(3), "lr": numpy.float32(0.5), "w": numpy.arange(3, dtype=numpy.int32),
                          "out": PureWindowsPath("result\\run1"), "log": PurePosixPath("a/b")})
    assert load_json(str(path)) == {"n": 3, "lr": 0.5, "w": [0, 1, 2], "out": "result/run1", "log": "a/b"}
    assert os.listdir(tmp_path) == ["params.json"]  # no temporary file left


def test_failure_leaves_the_old_file(tmp_path):
    path = tmp_path / "params.json"
    save_json(path, {"a": 1})
    with pytest.raises(TypeError):
        save_json(path, {"a": object()})
    assert load_json(path) == {"a": 1}
    save_json(path, {"a": object()}, ignore_error=True)  # logged, not raised
    assert load_json(path) == {"a": 1} and os.listdir(tmp_path) == ["params.json"]
