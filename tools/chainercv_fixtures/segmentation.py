"""ChainerCV's semantic segmentation models on seeded weights: what kusari.vision's must reproduce.

Writes under ``OUTDIR/segmentation/``:

- ``<model>.npz`` for each configuration of ``MODELS`` (``segnet_basic``, ``deeplab_v3plus_xception65``,
  ``pspnet_resnet50``, ``pspnet_resnet101``): ``config`` (JSON: class and constructor arguments, the
  smallest the constructor allows), ``seed``, ``keys`` (JSON: every key ``save_npz`` writes), ``shapes``
  (JSON ``{key: shape}`` of the float arrays, filled by ``_common.fill_seeded``), ``x`` and ``y`` (an input
  batch and ``model(x)``, the raw scores, test mode), and for each predict case ``<case>/config`` (JSON:
  attributes set before ``predict``, e.g. ``scales``), ``<case>/n``, ``<case>/img/<i>`` (uint8, given
  to ``predict`` as float32), ``<case>/label/<i>`` (``predict``'s label maps) and ``<case>/score/<i>``
  (the score map ``predict`` took the argmax of, caught at its ``numpy.argmax`` call). DeepLab's also
  ``aspp`` (the ASPP's output on ``x``).
- ``deeplab_parts.npz`` and ``pspnet_parts.npz``: for each case of ``PARTS`` (XceptionBlock, SeparableASPP,
  Decoder, PyramidPoolingModule in small configurations), ``<case>/config``, ``<case>/keys``,
  ``<case>/shapes``, ``<case>/seed``, ``<case>/x<i>`` (the inputs) and ``<case>/y<i>`` (the outputs).
- ``convolution_crop.npz``: for each case of ``CROPS``, ``<case>/config`` (JSON: size, stride),
  ``<case>/img``, ``<case>/crops`` and ``<case>/<name>`` (``(N, 2)`` int64 ``[start, stop]`` of each
  slice of ``return_param``'s ``y_slices``, ``x_slices``, ``crop_y_slices``, ``crop_x_slices``).
- ``pretrained_models.npz``: ``table`` (JSON list): every ``pretrained_model=`` name each model class
  accepts, with its URL, ``param``, ``overwritable`` and ``cv2`` flag.
"""
import contextlib
import io
import json
import os
import sys

import numpy as np

import _common
import chainer
import chainer.functions as F
from chainercv.experimental.links import PSPNetResNet50, PSPNetResNet101
from chainercv.experimental.links.model.pspnet import convolution_crop
from chainercv.experimental.links.model.pspnet.pspnet import DilatedResNet, PyramidPoolingModule
from chainercv.links import DeepLabV3plusXception65, SegNetBasic
from chainercv.links.model.deeplab import Decoder, SeparableASPP, XceptionBlock

DEEPLAB_BN = {"extractor_kwargs": {"bn_kwargs": {"decay": 0.9997, "eps": 1e-3}},
              "aspp_kwargs": {"bn_kwargs": {"decay": 0.9997, "eps": 1e-5}},
              "decoder_kwargs": {"bn_kwargs": {"decay": 0.9997, "eps": 1e-5}}}

# name -> (class, constructor kwargs, forward input shape, {predict case: (attributes, image shapes)});
# n_class is chosen so that the seeded weights predict at least two classes on the images (with others, one
# class wins everywhere: the seeded features vary little across pixels)
MODELS = {
    # odd heights: the decoder crops the unpooling and predict resizes the scores back
    "segnet_basic": (SegNetBasic, {"n_class": 4}, (2, 3, 21, 30),
                     {"default": ({}, [(3, 21, 30), (3, 32, 24)])}),
    "deeplab_v3plus_xception65": (
        DeepLabV3plusXception65, dict(n_class=8, min_input_size=(40, 48), **DEEPLAB_BN), (1, 3, 40, 48),
        {"default": ({}, [(3, 30, 40), (3, 45, 50)]),
         "scales_flip": ({"scales": (0.75, 1.0), "flip": True}, [(3, 30, 40)])}),
    # input_size (48, 56): images that fit (padded), that are shrunk, and that are tiled
    "pspnet_resnet50": (PSPNetResNet50, {"n_class": 3, "input_size": (48, 56)}, (1, 3, 48, 56),
                        {"default": ({}, [(3, 40, 44), (3, 54, 30), (3, 60, 50)]),
                         "scales": ({"scales": (0.5, 1.0)}, [(3, 60, 50)])}),
    "pspnet_resnet101": (PSPNetResNet101, {"n_class": 5, "input_size": (48, 56)}, (1, 3, 48, 56),
                         {"default": ({}, [(3, 60, 50)])}),
}

relu = F.relu
# case -> (file, class, args, kwargs, input shapes)
PARTS = {
    "xception_block_conv": ("deeplab_parts", XceptionBlock, (8, [6, 6, 10]),
                            {"stride": 2, "bn_kwargs": {"eps": 1e-3}}, [(2, 8, 9, 10)]),
    "xception_block_sum": ("deeplab_parts", XceptionBlock, (8, [8, 8, 8]),
                           {"dilate": 2, "skip_type": "sum"}, [(2, 8, 7, 6)]),
    "xception_block_none": ("deeplab_parts", XceptionBlock, (6, [8, 8, 10]),
                            {"dilate": 2, "skip_type": "none", "activ_first": False,
                             "dw_activ_list": [relu, relu, relu], "pw_activ_list": [relu, relu, relu]},
                            [(2, 6, 7, 8)]),
    "separable_aspp": ("deeplab_parts", SeparableASPP, (8, 4), {"dilate_list": (1, 2, 3)}, [(2, 8, 7, 9)]),
    "decoder": ("deeplab_parts", Decoder, (6, 3, 4, 5), {"bn_kwargs": {"eps": 1e-5}},
                [(2, 6, 9, 10), (2, 6, 5, 5)]),
    "pyramid_pooling": ("pspnet_parts", PyramidPoolingModule, (8, (6, 7), [6, 3, 2, 1]), {}, [(2, 8, 7, 7)]),
}

# case -> (image shape, dtype, size, stride)
CROPS = {
    "tiles": ((3, 10, 12), "float32", (4, 5), (3, 3)),
    "exact": ((2, 7, 9), "float32", (7, 9), (2, 2)),
    "short_height": ((1, 4, 11), "float32", (6, 5), (4, 3)),
    "uint8": ((3, 9, 8), "uint8", (5, 5), (4, 3)),
    # shorter than size - stride: ChainerCV makes no crop at all (kusari makes one)
    "too_short": ((1, 3, 10), "float32", (8, 4), (4, 4)),
}


def seed_of(name: str) -> int:
    return sum(map(ord, name))


def saved_keys(link) -> list:
    buffer = io.BytesIO()
    chainer.serializers.save_npz(buffer, link)
    with np.load(io.BytesIO(buffer.getvalue()), allow_pickle=True) as saved:
        return sorted(saved.files)


def jsonable(value):
    if callable(value):
        return value.__name__
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    return value


@contextlib.contextmanager
def argmax_inputs():
    """Records the arrays given to numpy.argmax (predict's score maps) while active."""
    seen = []
    original = np.argmax

    def argmax(a, *args, **kwargs):
        seen.append(np.array(a))
        return original(a, *args, **kwargs)

    np.argmax = argmax
    try:
        yield seen
    finally:
        np.argmax = original


def structure(link, seed):
    shapes = _common.fill_seeded(link, seed)
    return {"keys": json.dumps(saved_keys(link)),
            "shapes": json.dumps({k: list(v) for k, v in shapes.items()}, sort_keys=True),
            "seed": np.int64(seed)}


def write_model(out_dir, name, cls, kwargs, shape, cases):
    seed = seed_of(name)
    rng = np.random.RandomState(seed)
    model = cls(**kwargs)
    x = rng.standard_normal(shape).astype(np.float32)
    entries = {"config": json.dumps({"class": cls.__name__, "kwargs": jsonable(kwargs)}), "x": x}
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        model(x)  # initializes the parameters whose input size is deferred
        entries.update(structure(model, seed))
        entries["y"] = model(x).array
        if isinstance(model, DeepLabV3plusXception65):
            entries["aspp"] = model.aspp(model.feature_extractor(x)[1]).array
    for case, (attributes, image_shapes) in cases.items():
        for key, value in attributes.items():
            setattr(model, key, value)
        images = [rng.randint(0, 256, s).astype(np.uint8) for s in image_shapes]
        labels, scores = [], []
        for img in images:
            with argmax_inputs() as seen:
                labels += model.predict([img.astype(np.float32)])
            scores.append(seen[-1])
        entries[f"{case}/config"] = json.dumps(jsonable(attributes))
        entries[f"{case}/n"] = np.int64(len(images))
        for i, (img, label, score) in enumerate(zip(images, labels, scores)):
            entries[f"{case}/img/{i}"] = img
            entries[f"{case}/label/{i}"] = label
            entries[f"{case}/score/{i}"] = score
            top2 = np.sort(score, axis=0)[-2:]
            print(f"  {name}/{case}/{i}: labels {np.bincount(label.ravel()).tolist()}, "
                  f"smallest top-2 gap {float((top2[1] - top2[0]).min()):.3g}", flush=True)
    _common.save_npz(os.path.join(out_dir, f"{name}.npz"), entries)


def write_parts(out_dir):
    files = {}
    for case, (file, cls, args, kwargs, shapes) in PARTS.items():
        seed = seed_of(case)
        rng = np.random.RandomState(seed)
        xs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        link = cls(*args, **kwargs)
        entries = files.setdefault(file, {})
        with chainer.using_config("train", False), chainer.no_backprop_mode():
            link(*xs)
            for key, value in structure(link, seed).items():
                entries[f"{case}/{key}"] = value
            ys = link(*xs)
        ys = ys if isinstance(ys, tuple) else (ys,)
        entries[f"{case}/config"] = json.dumps({"class": cls.__name__, "args": jsonable(args),
                                                "kwargs": jsonable(kwargs)})
        for i, x in enumerate(xs):
            entries[f"{case}/x{i}"] = x
        for i, y in enumerate(ys):
            entries[f"{case}/y{i}"] = y.array
    for file, entries in files.items():
        _common.save_npz(os.path.join(out_dir, f"{file}.npz"), entries)


def write_crops(out_dir):
    entries = {}
    for case, (shape, dtype, size, stride) in CROPS.items():
        rng = np.random.RandomState(seed_of(case))
        img = rng.uniform(0, 255, shape).astype(dtype)
        crops, param = convolution_crop(img, size, stride, return_param=True)
        entries[f"{case}/config"] = json.dumps({"size": size, "stride": stride})
        entries[f"{case}/img"] = img
        entries[f"{case}/crops"] = crops
        for key, slices in param.items():
            entries[f"{case}/{key}"] = np.array([[s.start, s.stop] for s in slices], np.int64).reshape(-1, 2)
    _common.save_npz(os.path.join(out_dir, "convolution_crop.npz"), entries)


def pretrained_table():
    """Every (class, constructor kwargs, name) ChainerCV resolves, with what it resolves to."""
    tables = [("SegNetBasic", {}, SegNetBasic._models),
              ("DeepLabV3plusXception65", {}, DeepLabV3plusXception65._models),
              ("PSPNetResNet50", {}, PSPNetResNet50._models),
              ("PSPNetResNet101", {}, PSPNetResNet101._models)]
    for n_layer, models in sorted(DilatedResNet._models.items()):
        tables.append(("DilatedResNet", {"n_layer": n_layer}, models))
    rows = []
    for cls_name, kwargs, models in tables:
        for name, model in sorted(models.items()):
            rows.append({"class": cls_name, "kwargs": kwargs, "name": name, "url": model["url"],
                         "param": jsonable(model.get("param", {})),
                         "overwritable": sorted(model.get("overwritable", ())), "cv2": model.get("cv2", False)})
    return rows


def main(out_root):
    out_dir = os.path.join(out_root, "segmentation")
    os.makedirs(out_dir, exist_ok=True)
    write_parts(out_dir)
    write_crops(out_dir)
    _common.save_npz(os.path.join(out_dir, "pretrained_models.npz"), {"table": json.dumps(pretrained_table())})
    for name, (cls, kwargs, shape, cases) in MODELS.items():
        print(f"segmentation: {name}", flush=True)
        write_model(out_dir, name, cls, kwargs, shape, cases)


if __name__ == "__main__":
    main(sys.argv[1])
