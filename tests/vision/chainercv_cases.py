"""Replays on kusari.vision the calls that ChainerCV 0.13.1 made in tools/chainercv_fixtures/utils_transforms.py.

A test module lists the functions it covers in ``CHAINERCV_FUNCTIONS`` (paths under ``chainercv``, e.g.
``'transforms.resize'``) and takes the argument ``chainercv_case``: ``pytest_generate_tests`` (which the
conftest.py files of tests/vision/transforms and tests/vision/utils/* pick up) makes one test per
recorded case, and :func:`replay` calls the same kusari.vision function with the same arguments,
configuration and seeds, and compares the result with ChainerCV's: arrays of the same dtype and shape,
equal for integer dtypes and within 1e-6 (relative and absolute) for floating ones, and returned
parameters of the same Python types and values. A case where ChainerCV raised must raise here too:
AssertionError for a checker (``assert_is_*``), ValueError or TypeError otherwise.
"""
import contextlib
import functools
import importlib
import io
import json
import pathlib
import random
import warnings

import numpy
import pytest
from PIL import Image

import kusari

FIXTURE = pathlib.Path(__file__).resolve().parent / "fixtures" / "utils_transforms.npz"


@functools.cache
def _load() -> tuple:
    with numpy.load(FIXTURE) as f:
        arrays = {key: f[key] for key in f.files}
    return json.loads(str(arrays.pop("cases"))), arrays


def spec(name: str) -> dict:
    """The recorded spec of case ``name``."""
    return _load()[0][name]


def pytest_generate_tests(metafunc) -> None:
    if "chainercv_case" in metafunc.fixturenames:
        functions = metafunc.module.CHAINERCV_FUNCTIONS
        names = [name for name, s in _load()[0].items() if s["func"] in functions]
        assert names, f"no recorded case for {functions}"
        metafunc.parametrize("chainercv_case", names)


class _Decoder:
    """Turns a spec's tagged values back into arguments (files are written under ``tmp_path``)."""

    def __init__(self, tmp_path: pathlib.Path):
        self.tmp_path = tmp_path
        self.output = None   # where a write_image case writes

    def __call__(self, node):
        arrays = _load()[1]
        if node is None:
            return None
        if "file" in node:   # {"file": KEY, "suffix": ".png"}
            path = self.tmp_path / f"input{len(list(self.tmp_path.iterdir()))}{node['suffix']}"
            path.write_bytes(arrays[node["file"]].tobytes())
            return str(path)
        (tag, value), = node.items()
        if tag == "array":
            return arrays[value].copy()
        if tag == "bytesio":
            return io.BytesIO(arrays[value].tobytes())
        if tag == "out":
            self.output = io.BytesIO() if value is None else self.tmp_path / f"output{value}"
            return self.output if value is None else str(self.output)
        if tag in ("int", "float", "bool", "str"):
            return value
        if tag in ("npint", "npfloat"):
            return numpy.dtype(value[0]).type(value[1])
        if tag == "dtype":
            return numpy.dtype(value).type
        if tag == "slice":
            return slice(*value)
        if tag == "tuple":
            return tuple(self(v) for v in value)
        if tag == "list":
            return [self(v) for v in value]
        if tag == "dict":
            return {k: self(v) for k, v in value.items()}
        raise ValueError(f"unknown tag {tag!r}")


def compare(expected, actual, where: str = "result") -> None:
    """Assert that ``actual`` matches the recorded ``expected`` node (types, shapes, dtypes, values)."""
    arrays = _load()[1]
    if expected is None:
        assert actual is None, f"{where}: expected None, got {actual!r}"
        return
    (tag, value), = expected.items()
    if tag == "array":
        want = arrays[value]
        assert isinstance(actual, numpy.ndarray), f"{where}: expected an ndarray, got {type(actual).__name__}"
        assert actual.dtype == want.dtype, f"{where}: dtype {actual.dtype}, ChainerCV's {want.dtype}"
        assert actual.shape == want.shape, f"{where}: shape {actual.shape}, ChainerCV's {want.shape}"
        if want.dtype.kind in "biu":
            numpy.testing.assert_array_equal(actual, want, err_msg=where)
        else:
            numpy.testing.assert_allclose(actual, want, rtol=1e-6, atol=1e-6, err_msg=where)
    elif tag in ("int", "float", "bool", "str"):
        kind = {"int": int, "float": float, "bool": bool, "str": str}[tag]
        assert type(actual) is kind, f"{where}: expected a {tag}, got {type(actual).__name__} {actual!r}"
        if tag == "float":
            assert actual == pytest.approx(value, rel=1e-6, abs=1e-6), f"{where}: {actual} != {value}"
        else:
            assert actual == value, f"{where}: {actual!r} != {value!r}"
    elif tag in ("npint", "npfloat"):
        assert isinstance(actual, numpy.generic) and actual.dtype == numpy.dtype(value[0]), \
            f"{where}: expected a numpy {value[0]} scalar, got {type(actual).__name__}"
        assert actual == pytest.approx(value[1], rel=1e-6, abs=1e-6), f"{where}: {actual} != {value[1]}"
    elif tag == "slice":
        assert isinstance(actual, slice), f"{where}: expected a slice, got {type(actual).__name__}"
        assert [actual.start, actual.stop, actual.step] == value, f"{where}: {actual} != slice{tuple(value)}"
    elif tag in ("tuple", "list"):
        kind = tuple if tag == "tuple" else list
        assert type(actual) is kind, f"{where}: expected a {tag}, got {type(actual).__name__}"
        assert len(actual) == len(value), f"{where}: length {len(actual)}, ChainerCV's {len(value)}"
        for i, (e, a) in enumerate(zip(value, actual)):
            compare(e, a, f"{where}[{i}]")
    elif tag == "dict":
        assert isinstance(actual, dict), f"{where}: expected a dict, got {type(actual).__name__}"
        assert sorted(actual) == sorted(value), f"{where}: keys {sorted(actual)}, ChainerCV's {sorted(value)}"
        for key in value:
            compare(value[key], actual[key], f"{where}[{key!r}]")
    else:
        raise ValueError(f"unknown tag {tag!r}")


def _function(path: str):
    module, _, name = ("kusari.vision." + path).rpartition(".")
    return getattr(importlib.import_module(module), name)


def _decoded_image(data: bytes) -> tuple:
    with Image.open(io.BytesIO(data)) as image:
        return image.mode, numpy.asarray(image)


def replay(name: str, tmp_path: pathlib.Path):
    """Call kusari.vision's version of case ``name`` as ChainerCV was called and compare the results.

    Returns
    -------
    object
        What kusari returned (None when ChainerCV raised).
    """
    s = spec(name)
    decode = _Decoder(tmp_path)
    args = [decode(a) for a in s["args"]["list"]]
    kwargs = {k: decode(v) for k, v in s["kwargs"]["dict"].items()}
    function = _function(s["func"])
    expected = s["result"]

    def call():
        if s["seed"] is not None:
            random.seed(s["seed"])
            numpy.random.seed(s["seed"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)   # random_rotate's
            with contextlib.ExitStack() as stack:
                for key, value in s["config"].items():
                    stack.enter_context(kusari.using_config(key, value))
                return function(*args, **kwargs)

    if expected is not None and "error" in expected:
        # a checker refuses with AssertionError (ChainerCV's sometimes failed otherwise on odd input)
        checker = s["func"].startswith("utils.assert_")
        kinds = AssertionError if checker else (ValueError, TypeError)
        with pytest.raises(kinds):
            call()
        return None
    result = call()
    if decode.output is not None:   # write_image: compare the decoded files
        data = decode.output.getvalue() if isinstance(decode.output, io.BytesIO) else decode.output.read_bytes()
        want_mode, want = _decoded_image(_load()[1][expected["dict"]["written"]["array"]].tobytes())
        mode, got = _decoded_image(data)
        assert mode == want_mode, f"{name}: wrote a {mode} image, ChainerCV a {want_mode} one"
        numpy.testing.assert_array_equal(got, want, err_msg=name)
        return result
    if s["note"] == "fill_first_channel":
        # ChainerCV's cv2 rotate filled only channel 0 with a non-zero fill; kusari fills every channel
        want = _load()[1][expected["array"]]
        assert result.shape == want.shape and result.dtype == want.dtype, name
        numpy.testing.assert_allclose(result[0], want[0], rtol=1e-6, atol=1e-6, err_msg=name)
        return result
    compare(expected, result, name)
    return result

