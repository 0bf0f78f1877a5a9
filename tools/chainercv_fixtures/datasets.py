"""Writes ``datasets.npz``: what ChainerCV 0.13.1's datasets return on the tiny synthetic layouts of
``tests/vision/synthetic_datasets.py`` (written here with seed 0), and the sliceable datasets' semantics.

The JSON entry ``record`` holds:

- ``constants``: ``"module.name"`` -> value, for every ``(module, name)`` of ``dataset_cases.CONSTANTS``
  (label names and colours, ``cityscapes_labels``, the download URLs);
- ``sbd_lists``: the ids of ``train_voc2012.txt``, ``val_voc2012.txt`` and ``trainval_voc2012.txt`` that
  ChainerCV's ``sbd_utils._generate_voc2012_txt`` makes (the SBD cases read them);
- ``cases``: for each ``dataset_cases.CASES`` entry, the construction's error class or its ``keys``,
  length, the warnings it gave (but ResourceWarning and DeprecationWarning), and every example (or the error class of reading it). Cityscapes
  datasets are recorded in the order of their image paths (ChainerCV lists them in the file system's
  order);
- ``coco_annotation_masks``: for each image of the COCO layout, ChainerCV's mask of each annotation, in the
  file's order (``COCOInstancesBaseDataset._segm_to_mask``), to check masks it drops or misaligns;
- ``exports``: the public names of ``chainercv.datasets``, ``chainercv.chainer_experimental`` and its
  subpackages;
- ``scenarios``: the value of each ``dataset_cases.SCENARIOS`` program on ChainerCV, or its error class.

Values are tagged by type (``int``, ``float``, ``bool``, ``str``, ``npint``, ``npfloat``, ``npbool``,
``tuple``, ``list``, ``namedtuple``, ``dict``); arrays are references ``{"array": KEY}`` to entries
``array/<hash>`` (each distinct array once; float32 arrays of integers in [0, 255] are stored as uint8
under ``{"uint8_as": KEY, "dtype": "float32"}``).
"""
import hashlib
import importlib
import json
import os
import shutil
import sys
import tempfile
import types
import warnings

import numpy as np

from _common import save_npz  # also silences NumPy 1.23's deprecation warnings

import chainercv  # noqa: E402
import chainercv.chainer_experimental.datasets.sliceable  # noqa: E402
import chainercv.chainer_experimental.training.extensions  # noqa: E402
import dataset_cases  # noqa: E402  (tests/vision, on PYTHONPATH)
import synthetic_datasets  # noqa: E402

OUT_NAME = "datasets.npz"
SEED = 0


class Recorder:
    """Encodes values as tagged JSON, pooling arrays."""

    def __init__(self):
        self.arrays = {}

    def _pool(self, array):
        array = np.ascontiguousarray(array)
        key = "array/" + hashlib.sha1(array.dtype.str.encode() + str(array.shape).encode() + array.tobytes()).hexdigest()[:16]
        self.arrays[key] = array
        return key

    def encode(self, value):
        if isinstance(value, np.ndarray):
            if (value.dtype == np.float32 and value.size and np.all(value == np.round(value))
                    and value.min() >= 0 and value.max() <= 255):
                return {"uint8_as": self._pool(value.astype(np.uint8)), "dtype": "float32"}
            return {"array": self._pool(value)}
        if isinstance(value, (bool, np.bool_)):
            return {"bool": bool(value)} if isinstance(value, bool) else {"npbool": bool(value)}
        if isinstance(value, (int, np.integer)):
            return {"int": int(value)} if isinstance(value, int) else {"npint": [value.dtype.str, int(value)]}
        if isinstance(value, (float, np.floating)):
            return {"float": float(value)} if isinstance(value, float) else {"npfloat": [value.dtype.str, float(value)]}
        if isinstance(value, str):
            return {"str": value}
        if value is None:
            return None
        if isinstance(value, tuple) and hasattr(value, "_fields"):
            return {"namedtuple": [type(value).__name__, list(value._fields), [self.encode(v) for v in value]]}
        if isinstance(value, tuple):
            return {"tuple": [self.encode(v) for v in value]}
        if isinstance(value, list):
            return {"list": [self.encode(v) for v in value]}
        if isinstance(value, dict):
            return {"dict": {k: self.encode(v) for k, v in value.items()}}
        raise TypeError(f"cannot encode {type(value)}")

    def attempt(self, action):
        """The encoded value of ``action()``, or ``{"error": class name}``."""
        try:
            return self.encode(action())
        except Exception as e:   # the recorded outcome
            return {"error": type(e).__name__}


def _layout_root() -> str:
    """A fresh folder whose path holds no split name (ChainerCV's Cityscapes dataset matches split names
    anywhere in the path)."""
    while True:
        root = tempfile.mkdtemp(prefix="ccvlayouts")
        if not any(word in root for word in ("train", "val", "test")):
            return root
        os.rmdir(root)


def _warned(caught) -> list:
    """The classes of the warnings a construction gave (not ChainerCV's unclosed files)."""
    return [w.category.__name__ for w in caught if not issubclass(w.category, (ResourceWarning, DeprecationWarning))]


def record_case(recorder, root, name, class_name, kwargs):
    cls = getattr(chainercv.datasets, class_name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            dataset = cls(**dataset_cases.resolve(kwargs, root))
        except Exception as e:   # the recorded outcome
            return {"error": type(e).__name__, "warnings": _warned(caught)}
    if class_name == "CityscapesSemanticSegmentationDataset":
        dataset = dataset.slice[list(np.argsort(dataset.img_paths))]
    return {"keys": recorder.encode(dataset.keys), "len": len(dataset),
            "warnings": _warned(caught),
            "examples": [recorder.attempt(lambda i=i: dataset[i]) for i in range(len(dataset))]}


def record_coco_masks(recorder, root):
    dataset = chainercv.datasets.COCOBboxDataset(os.path.join(root, synthetic_datasets.LAYOUTS["coco"]), "val")
    masks = []
    for image_id in dataset.ids:
        prop = dataset.id_to_prop[image_id]
        masks.append([recorder.encode(dataset._segm_to_mask(ann["segmentation"], (prop["height"], prop["width"])))
                      for ann in dataset.id_to_anno[image_id]])
    return masks


def main(out_dir):
    recorder = Recorder()
    root = _layout_root()
    try:
        synthetic_datasets.write_layouts(root, SEED)
        sbd = os.path.join(root, synthetic_datasets.LAYOUTS["sbd"])
        shutil.copyfile(os.path.join(root, "sbd", "train_noval.txt"), os.path.join(sbd, "train_voc2012.txt"))
        chainercv.datasets.sbd.sbd_utils._generate_voc2012_txt(sbd)
        sbd_lists = {}
        for split in ("train", "val", "trainval"):
            with open(os.path.join(sbd, f"{split}_voc2012.txt")) as f:
                sbd_lists[split] = [line.strip() for line in f]

        constants = {}
        for module, name in dataset_cases.CONSTANTS:
            package = __import__(f"chainercv.datasets.{module}", fromlist=[name])
            constants[f"{module}.{name}"] = recorder.encode(getattr(package, name))

        cases = {name: record_case(recorder, root, name, class_name, kwargs)
                 for name, class_name, kwargs in dataset_cases.CASES}
        coco_masks = record_coco_masks(recorder, root)
    finally:
        shutil.rmtree(root)

    lib = types.SimpleNamespace(sliceable=chainercv.chainer_experimental.datasets.sliceable,
                                datasets=chainercv.datasets,
                                make_shift=chainercv.chainer_experimental.training.extensions.make_shift)
    scenarios = {}
    for name, program in dataset_cases.SCENARIOS.items():
        scenarios[name] = recorder.attempt(lambda: program(lib))

    exports = {package: sorted(name for name in dir(importlib.import_module(f"chainercv.{package}")) if name[0] != "_")
               for package in ("datasets", "chainer_experimental", "chainer_experimental.datasets",
                               "chainer_experimental.datasets.sliceable", "chainer_experimental.training",
                               "chainer_experimental.training.extensions")}
    record = {"seed": SEED, "constants": constants, "sbd_lists": sbd_lists, "cases": cases, "exports": exports,
              "coco_annotation_masks": coco_masks, "scenarios": scenarios}
    save_npz(os.path.join(out_dir, OUT_NAME), dict(recorder.arrays, record=np.array(json.dumps(record, sort_keys=True))))


if __name__ == "__main__":
    main(sys.argv[1])
