"""Compares kusari.vision's datasets with what ChainerCV 0.13.1 recorded (tools/chainercv_fixtures/datasets.py).

``write_layouts(root)`` writes the synthetic layouts the writer read (same seed) and makes SBD's VOC 2012
lists with kusari; ``check_case(name, root)`` builds case ``name`` of ``dataset_cases.CASES`` with
kusari.vision and compares it with ChainerCV's record; ``check_scenario(name)`` runs a program of
``dataset_cases.SCENARIOS`` on kusari. Comparisons are exact: the same Python and NumPy types, dtypes,
shapes and values, and the same error classes.

Where kusari differs on purpose (each listed in docs/vision_datasets.md), the check asserts both what
ChainerCV recorded and what kusari does instead.
"""
import functools
import importlib
import json
import os
import pathlib
import shutil
import tarfile
import types
import warnings
import zipfile

import numpy
import pytest

import dataset_cases
import synthetic_datasets

import kusari.vision
from kusari.vision.chainer_experimental.datasets import sliceable
from kusari.vision.chainer_experimental.training.extensions import make_shift
from kusari.vision.datasets.sbd.sbd_utils import generate_voc2012_txt

FIXTURE = pathlib.Path(__file__).resolve().parent / "fixtures" / "datasets.npz"
KUSARI = types.SimpleNamespace(sliceable=sliceable, datasets=kusari.vision.datasets, make_shift=make_shift)


@functools.cache
def _load() -> tuple:
    with numpy.load(FIXTURE) as f:
        arrays = {key: f[key] for key in f.files}
    return json.loads(str(arrays.pop("record"))), arrays


def record() -> dict:
    return _load()[0]


def decode(node):
    """The value a recorded node stands for."""
    arrays = _load()[1]
    if node is None:
        return None
    if "uint8_as" in node:
        return arrays[node["uint8_as"]].astype(node["dtype"])
    (tag, value), = node.items()
    if tag == "array":
        return arrays[value]
    if tag in ("int", "float", "bool", "str"):
        return value
    if tag in ("npint", "npfloat"):
        return numpy.dtype(value[0]).type(value[1])
    if tag == "npbool":
        return numpy.bool_(value)
    if tag in ("tuple", "list"):
        return (tuple if tag == "tuple" else list)(decode(v) for v in value)
    if tag == "namedtuple":
        return tuple(decode(v) for v in value[2])
    if tag == "dict":
        return {k: decode(v) for k, v in value.items()}
    raise ValueError(f"unknown tag {tag!r}")


def compare(expected, actual, where: str) -> None:
    """Assert that ``actual`` is exactly what the recorded node ``expected`` stands for."""
    if expected is None:
        assert actual is None, f"{where}: expected None, got {actual!r}"
        return
    if "uint8_as" in expected or "array" in expected:
        want = decode(expected)
        assert isinstance(actual, numpy.ndarray), f"{where}: expected an ndarray, got {type(actual).__name__}"
        assert (actual.dtype, actual.shape) == (want.dtype, want.shape), \
            f"{where}: {actual.dtype} {actual.shape}, ChainerCV's {want.dtype} {want.shape}"
        numpy.testing.assert_array_equal(actual, want, err_msg=where)
        return
    (tag, value), = expected.items()
    if tag == "error":
        raise AssertionError(f"{where}: ChainerCV raised {value}, kusari returned {actual!r}")
    if tag in ("tuple", "list", "namedtuple"):
        if tag == "namedtuple":
            assert type(actual).__name__ == value[0] and list(actual._fields) == value[1], \
                f"{where}: expected the namedtuple {value[0]}{tuple(value[1])}, got {actual!r}"
            value = value[2]
        else:
            kind = tuple if tag == "tuple" else list
            assert type(actual) is kind, f"{where}: expected a {tag}, got {type(actual).__name__} {actual!r}"
        assert len(actual) == len(value), f"{where}: length {len(actual)}, ChainerCV's {len(value)}"
        for i, (e, a) in enumerate(zip(value, actual)):
            compare(e, a, f"{where}[{i}]")
        return
    if tag == "dict":
        assert isinstance(actual, dict) and sorted(actual) == sorted(value), f"{where}: {actual!r} != {value!r}"
        for key in value:
            compare(value[key], actual[key], f"{where}[{key!r}]")
        return
    want = decode(expected)
    assert type(actual) is type(want), f"{where}: expected a {type(want).__name__}, got {type(actual).__name__} {actual!r}"
    assert actual == want, f"{where}: {actual!r} != ChainerCV's {want!r}"


def write_layouts(root) -> str:
    """Write the writer's layouts under ``root`` (and SBD's VOC 2012 lists, made by kusari); returns it."""
    root = str(root)
    synthetic_datasets.write_layouts(root, record()["seed"])
    sbd = os.path.join(root, synthetic_datasets.LAYOUTS["sbd"])
    generate_voc2012_txt(sbd, os.path.join(root, "sbd", "train_noval.txt"))
    return root


def check_constant(name: str) -> None:
    """Compare the constant ``"module.name"`` (under kusari.vision.datasets) with ChainerCV's."""
    module, _, attribute = name.rpartition(".")
    value = getattr(importlib.import_module(f"kusari.vision.datasets.{module}"), attribute)
    compare(record()["constants"][name], value, name)


def case_names(class_name: str) -> list:
    names = [name for name, cls, _ in dataset_cases.CASES if cls == class_name]
    assert names, f"no case of {class_name}"
    return names


def _case(name: str) -> tuple:
    return next((cls, kwargs) for n, cls, kwargs in dataset_cases.CASES if n == name)


def build(name: str, root: str) -> tuple:
    """kusari.vision's dataset of case ``name`` (or the exception its construction raised) and the classes
    of the warnings the construction gave."""
    class_name, kwargs = _case(name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            dataset = getattr(kusari.vision.datasets, class_name)(**dataset_cases.resolve(kwargs, root))
        except Exception as e:   # compared with ChainerCV's
            dataset = e
    return dataset, [w.category.__name__ for w in caught if not issubclass(w.category, (ResourceWarning, DeprecationWarning))]


def check_case(name: str, root: str) -> None:
    """Build case ``name`` with kusari and compare every example with ChainerCV's."""
    recorded = record()["cases"][name]
    dataset, warned = build(name, root)
    assert warned == recorded["warnings"], f"{name}: warnings {warned}, ChainerCV's {recorded['warnings']}"
    if "error" in recorded:
        assert type(dataset).__name__ == recorded["error"], f"{name}: kusari gave {dataset!r}, ChainerCV a {recorded['error']}"
        return
    assert not isinstance(dataset, Exception), f"{name}: kusari raised {dataset!r}"
    keys = decode(recorded["keys"])
    if _case(name)[0] == "CamVidDataset":   # ChainerCV 0.13.1 misspells its key 'label' as 'iabel'
        assert keys == ("img", "iabel")
        keys = ("img", "label")
    assert dataset.keys == keys, f"{name}: keys {dataset.keys}, ChainerCV's {keys}"
    assert len(dataset) == recorded["len"], name
    for i, expected in enumerate(recorded["examples"]):
        where = f"{name}[{i}]"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)   # COCO's mask of the wrong size, checked below
            example = dataset[i]
        if expected is not None and "error" in expected:
            _check_difference(name, i, example, expected["error"])
        elif name.startswith("coco_instance"):
            _check_coco_instance(name, i, dataset.keys, example, expected, root)
        else:
            compare(expected, example, where)


def _check_difference(name: str, i: int, example, error: str) -> None:
    """ChainerCV failed reading an example that kusari reads: VOCBboxDataset's image whose objects are all
    difficult (ChainerCV stacks an empty list); kusari returns empty boxes."""
    assert _case(name)[0] == "VOCBboxDataset" and error == "ValueError", f"{name}[{i}]: ChainerCV raised {error}"
    img, bbox, label = example[:3]
    assert img.dtype == numpy.float32 and img.ndim == 3
    assert bbox.shape == (0, 4) and bbox.dtype == numpy.float32
    assert label.shape == (0,) and label.dtype == numpy.int32
    if len(example) == 4:
        assert example[3].shape == (0,) and example[3].dtype == bool


def _check_coco_instance(name: str, i: int, keys: tuple, example: tuple, expected: dict, root: str) -> None:
    """COCO instance segmentation: every key but ``mask`` as ChainerCV; ``mask`` holds ChainerCV's mask of
    each annotation whose box ChainerCV keeps (in ChainerCV's COCOBboxDataset of the same
    ``use_crowded``), and an empty mask for one whose size is not its image's. ChainerCV kept the masks
    of boxes of zero area and dropped those of the wrong size, so its masks did not line up with its
    labels there; where they do, they equal kusari's."""
    values = expected["tuple"]
    for key, e, a in zip(keys, values, example):
        if key != "mask":
            compare(e, a, f"{name}[{i}].{key}")
    use_crowded = bool(_case(name)[1].get("use_crowded"))
    kept_boxes = decode(record()["cases"]["coco_bbox_val_everything" if use_crowded else "coco_bbox_val"]
                        ["examples"][i]["tuple"][1])
    annotation_masks = [decode(m) for m in record()["coco_annotation_masks"][i]]
    H, W = example[0].shape[1:]
    with open(os.path.join(root, synthetic_datasets.LAYOUTS["coco"], "annotations", "instances_val2017.json")) as f:
        annos = json.load(f)
    image_id = sorted(image["id"] for image in annos["images"])[i]
    anns = [ann for ann in annos["annotations"] if ann["image_id"] == image_id]
    xywh = numpy.array([ann["bbox"] for ann in anns], dtype=numpy.float32).reshape(-1, 4)
    boxes = numpy.stack([xywh[:, 1], xywh[:, 0], xywh[:, 1] + xywh[:, 3], xywh[:, 0] + xywh[:, 2]], axis=1)
    kept = [int(numpy.flatnonzero((boxes == row).all(axis=1))[0]) for row in kept_boxes]

    def stack(rows):
        masks = numpy.zeros((len(rows), H, W), dtype=bool)
        for row, j in enumerate(rows):
            if annotation_masks[j].shape == (H, W):
                masks[row] = annotation_masks[j]
        return masks

    mask = example[keys.index("mask")]
    want = stack(kept)
    assert mask.dtype == bool and mask.shape == want.shape, f"{name}[{i}]: mask {mask.shape}, expected {want.shape}"
    numpy.testing.assert_array_equal(mask, want, err_msg=f"{name}[{i}].mask")
    # what ChainerCV returned: the masks of the annotations its crowd rule keeps, of the right size
    chainercv_rows = [j for j, ann in enumerate(anns)
                      if (use_crowded or not ann["iscrowd"]) and annotation_masks[j].shape == (H, W)]
    numpy.testing.assert_array_equal(decode(values[keys.index("mask")]), stack(chainercv_rows),
                                     err_msg=f"{name}[{i}]: ChainerCV's masks")
    if chainercv_rows == kept:
        numpy.testing.assert_array_equal(mask, decode(values[keys.index("mask")]), err_msg=f"{name}[{i}].mask")


def copy_layout(root: str, name: str, destination) -> str:
    """A copy of layout ``name`` at ``destination`` (to change it)."""
    return shutil.copytree(os.path.join(root, synthetic_datasets.LAYOUTS[name]), destination)


# where kusari differs on purpose: what it does instead of what ChainerCV recorded
SCENARIO_DIFFERENCES = {
    "sliced_negative_index": (3, numpy.int64(30), 8),          # ChainerCV: example 0 (start - 1 * step)
    "sliced_index_past_the_end": IndexError,                    # ChainerCV: example 3, past the view's end
    "slice_empty_indices": (("a", "b", None), 0, []),           # ChainerCV: ValueError
    "slice_empty_keys": ((), 2, [(), ()]),                      # ChainerCV: ValueError
}


def scenario_names(*prefixes: str) -> list:
    names = [name for name in dataset_cases.SCENARIOS if name.startswith(prefixes)]
    assert names, f"no scenario starts with {prefixes}"
    return names


def check_scenario(name: str) -> None:
    """Run scenario ``name`` on kusari and compare with ChainerCV's outcome (or the documented difference)."""
    expected = record()["scenarios"][name]
    program = dataset_cases.SCENARIOS[name]
    if name in SCENARIO_DIFFERENCES:
        instead = SCENARIO_DIFFERENCES[name]
        if isinstance(instead, type):   # kusari raises where ChainerCV returned something
            assert "error" not in expected, f"{name}: ChainerCV raised too"
            with pytest.raises(instead):
                program(KUSARI)
        else:
            assert "error" in expected or decode(expected) != instead, f"{name}: ChainerCV did the same"
            _assert_equal(program(KUSARI), instead, name)
        return
    if expected is not None and "error" in expected:
        with pytest.raises(Exception) as raised:
            program(KUSARI)
        assert type(raised.value).__name__ == expected["error"], \
            f"{name}: kusari raised {raised.value!r}, ChainerCV a {expected['error']}"
        return
    compare(expected, program(KUSARI), name)


def _assert_equal(actual, want, where):
    assert type(actual) is type(want), f"{where}: {actual!r} != {want!r}"
    if isinstance(want, (tuple, list)):
        assert len(actual) == len(want), f"{where}: {actual!r} != {want!r}"
        for i, (a, w) in enumerate(zip(actual, want)):
            _assert_equal(a, w, f"{where}[{i}]")
    else:
        assert actual == want, f"{where}: {actual!r} != {want!r}"


def archive(path, members: dict) -> str:
    """Write the archive ``path`` (a .zip, .tar, .tgz or .tar.gz, by its name) holding each
    ``{name in the archive: folder or file}``; returns ``path``."""
    path = str(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if path.endswith(".zip"):
        with zipfile.ZipFile(path, "w") as out:
            for name, source in members.items():
                for folder, _, files in os.walk(source) if os.path.isdir(source) else [(None, None, [None])]:
                    for file in files:
                        full = source if file is None else os.path.join(folder, file)
                        out.write(full, name if file is None else
                                  os.path.join(name, os.path.relpath(full, source)).replace(os.sep, "/"))
        return path
    with tarfile.open(path, "w:gz" if path.endswith(("gz", ".tgz")) else "w") as out:
        for name, source in members.items():
            out.add(source, arcname=name)
    return path


def same_examples(a, b, where: str) -> None:
    """Assert that datasets ``a`` and ``b`` have the same keys and exactly the same examples."""
    assert a.keys == b.keys and len(a) == len(b), f"{where}: {a.keys} ({len(a)}) != {b.keys} ({len(b)})"
    for i in range(len(a)):
        x, y = a[i], b[i]
        x, y = (x, y) if isinstance(x, tuple) else ((x,), (y,))
        for k, (u, v) in enumerate(zip(x, y)):
            assert type(u) is type(v) and getattr(u, "dtype", None) == getattr(v, "dtype", None), f"{where}[{i}][{k}]"
            numpy.testing.assert_array_equal(u, v, err_msg=f"{where}[{i}][{k}]")
