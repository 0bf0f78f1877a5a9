"""Comparing kusari.vision's links with ChainerCV's fixtures (tools/chainercv_fixtures/classification.py).

A fixture holds a link's key list, the shapes of its float arrays, an input and ChainerCV's outputs on
weights drawn by tests/vision/seeded_weights.py. The tests draw the same weights, give them to the kusari
link, save it with kusari's save_npz (ChainerCV's layout: the same keys), load the file strictly into a fresh
link and compare its outputs with ChainerCV's.
"""
import importlib.util
import json
import pathlib

import numpy

import kusari
from kusari import initializers, serializers

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "classification"

_spec = importlib.util.spec_from_file_location("vision_seeded_weights",
                                               pathlib.Path(__file__).resolve().parents[1] / "seeded_weights.py")
seeded_weights = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seeded_weights)


def load_fixture(file: str, prefix: str = "") -> dict:
    """The entries of ``FIXTURES/file`` under ``prefix`` (prefix removed); JSON entries decoded."""
    with numpy.load(FIXTURES / file) as data:
        out = {}
        for key in data.files:
            if not key.startswith(prefix):
                continue
            value = data[key]
            name = key[len(prefix):]
            out[name] = json.loads(str(value)) if name in ("config", "keys", "shapes", "layer_names") else value
    return out


def saved_shapes(link) -> dict:
    """``{key: shape or None}`` of what kusari's save_npz writes for ``link`` (None: not initialized)."""
    target = {}
    serializers.DictionarySerializer(target).save(link)
    return {key: (None if array.dtype == object else array.shape) for key, array in target.items()}


def fill_seeded(link, shapes: dict, seed: int) -> None:
    """Give ``link`` the seeded arrays ChainerCV's link got (``shapes``: the fixture's float keys)."""
    arrays = seeded_weights.seeded_arrays(shapes, seed)
    serializers.NpzDeserializer(arrays, strict=False).load(link)


def check_structure(link, fixture: dict) -> None:
    """``link`` saves exactly ChainerCV's keys, and its float arrays have ChainerCV's shapes."""
    shapes = saved_shapes(link)
    assert sorted(shapes) == sorted(fixture["keys"])
    for key, shape in fixture["shapes"].items():
        assert shapes[key] == tuple(shape), key


def seeded_file(make, x, fixture: dict, tmp_path) -> str:
    """An NPZ, saved by kusari, of a ``make()`` link holding the fixture's seeded weights.

    The link is run on ``x`` first (initializing the parameters whose input size is deferred) and
    must save exactly ChainerCV's keys with ChainerCV's shapes.
    """
    link = make()
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        link(x)
    check_structure(link, fixture)
    fill_seeded(link, fixture["shapes"], int(fixture["seed"]))
    path = str(tmp_path / "seeded.npz")
    serializers.save_npz(path, link, compression=False)
    return path


def assert_close(actual, expected, name: str = "", tolerance: float = 1e-4) -> None:
    """Within ``tolerance``, relative to the larger of 1 and the output's magnitude; float32 kept."""
    actual = actual.array if isinstance(actual, kusari.Variable) else actual
    assert actual.dtype == numpy.float32, name
    assert actual.shape == expected.shape, name
    scale = max(1.0, float(numpy.abs(expected).max()))
    numpy.testing.assert_allclose(actual, expected, rtol=tolerance, atol=tolerance * scale, err_msg=name)



def connection_cases(class_name: str) -> list:
    """The cases of ``connection.npz`` that build ``class_name``."""
    with numpy.load(FIXTURES / "connection.npz") as data:
        configs = {key.split("/")[0]: json.loads(str(data[key])) for key in data.files if key.endswith("/config")}
    return sorted(case for case, config in configs.items() if config["class"] == class_name)


def check_connection_case(cls, case: str, tmp_path) -> None:
    """``cls`` built as the fixture's ``case`` gives ChainerCV's outputs (test mode, and training mode
    for the links with batch normalization) after a save/strict-load round trip of seeded weights."""
    import kusari.functions as F
    fixture = load_fixture("connection.npz", case + "/")
    config = fixture["config"]
    kwargs = {k: (getattr(F, v) if isinstance(v, str) and k.endswith("activ") else v)
              for k, v in config["kwargs"].items()}

    def make():
        return cls(*config["args"], **kwargs)

    x = fixture["x"]
    path = seeded_file(make, x, fixture, tmp_path)
    link = make()
    serializers.load_npz(path, link)
    with kusari.using_config("train", False):
        assert_close(link(x), fixture["y"], case)
    if "y_train" in fixture:
        with kusari.using_config("train", True):
            assert_close(link(x), fixture["y_train"], case + " (train)")


def check_model(cls, name: str, tmp_path) -> None:
    """``cls`` configured as the fixture ``name`` has ChainerCV's layers, keys, shapes and mean, and,
    built with ``pretrained_model=`` a kusari-saved NPZ of the seeded weights, gives ChainerCV's picked
    outputs (test mode)."""
    fixture = load_fixture(f"{name}.npz")
    config = fixture["config"]
    assert config["class"] == cls.__name__

    def make(**kwargs):
        return cls(n_class=config["n_class"], **config["kwargs"], **kwargs)

    x = fixture["x"]
    # the weights are overwritten: skip the random sampling
    path = seeded_file(lambda: make(initialW=initializers.Zero()), x, fixture, tmp_path)
    model = make(pretrained_model=path)
    assert model.layer_names == fixture["layer_names"]
    numpy.testing.assert_array_equal(model.mean, fixture["mean"])
    assert model.mean.dtype == numpy.float32
    pick = sorted((key[len("out/"):] for key in fixture if key.startswith("out/")), key=model.layer_names.index)
    model.pick = pick
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        outputs = model(x)
    for layer, y in zip(pick, outputs):
        assert_close(y, fixture["out/" + layer], f"{name}: {layer}")
