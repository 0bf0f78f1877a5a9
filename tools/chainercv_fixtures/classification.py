"""ChainerCV's classification links and models on seeded weights: what kusari.vision's must reproduce.

Writes under ``OUTDIR/classification/``:

- ``<model>.npz`` for each model configuration of ``MODELS`` (``vgg16``, ``resnet50_fb``, ``resnet50_he``,
  ``resnet101_he``, ``resnet152_fb``, ``se_resnet50``, ``se_resnet101``, ``se_resnet152``, ``se_resnext50``,
  ``se_resnext101``, ``mobilenet_v2_1.0``, ``mobilenet_v2_1.4``): ``config`` (JSON: class and constructor
  arguments), ``seed``, ``keys`` (JSON: every key ``save_npz`` writes), ``shapes`` (JSON ``{key: shape}`` of
  the float arrays among them, filled by ``_common.fill_seeded``), ``layer_names`` (JSON), ``mean`` (the
  default ``model.mean``), ``x`` (the input)
  and ``out/<layer>`` for each picked layer (test mode); MobileNetV2's also ``mobilenet_commit``. No weights.
- ``connection.npz``: for each connection link case of ``CONNECTIONS``, ``<case>/config``,
  ``<case>/shapes``, ``<case>/x`` and ``<case>/y`` (test mode; ``<case>/y_train`` in training mode for the
  links with batch normalization).
- ``pretrained_models.npz``: ``table`` (JSON list): every ``pretrained_model=`` name each model class
  accepts, with its URL, ``param`` (``n_class``, ``mean``), ``overwritable`` and ``cv2`` flag.

MobileNetV2 came to ChainerCV after 0.13.1: its cases run ChainerCV's master sources
(``chainercv/links/model/mobilenet`` at commit ``MOBILENET_COMMIT``), found through the environment variable
``CHAINERCV_MASTER_SOURCE`` (a folder holding ``chainercv/links/model/mobilenet``), on top of the installed
0.13.1; without it those cases are skipped (their files are kept).
"""
import io
import json
import os
import sys

import numpy as np

import _common
import chainer
import chainercv.links.model
from chainercv.links import (SEBlock, Conv2DActiv, Conv2DBNActiv, ResNet50, ResNet101, ResNet152, SEResNet50,
                             SEResNet101, SEResNet152, SEResNeXt50, SEResNeXt101, SeparableConv2DBNActiv, VGG16)

MOBILENET_COMMIT = "7159616642e0be7c5b3ef380b848e16b7e99355b"
N_CLASS = 10
RESNET_PICK = ("res5", "pool5", "fc6", "prob")

# name -> (class name, constructor kwargs, input shape, picked layers)
MODELS = {
    "vgg16": ("VGG16", {}, (1, 3, 32, 32), ("conv5_3", "fc6", "fc7", "prob")),
    "resnet50_fb": ("ResNet50", {"arch": "fb"}, (1, 3, 64, 64), RESNET_PICK),
    "resnet50_he": ("ResNet50", {"arch": "he"}, (1, 3, 64, 64), RESNET_PICK),
    "resnet101_he": ("ResNet101", {"arch": "he"}, (1, 3, 64, 64), RESNET_PICK),
    "resnet152_fb": ("ResNet152", {"arch": "fb"}, (1, 3, 64, 64), RESNET_PICK),
    "se_resnet50": ("SEResNet50", {}, (1, 3, 64, 64), RESNET_PICK),
    "se_resnet101": ("SEResNet101", {}, (1, 3, 64, 64), RESNET_PICK),
    "se_resnet152": ("SEResNet152", {}, (1, 3, 64, 64), RESNET_PICK),
    "se_resnext50": ("SEResNeXt50", {}, (1, 3, 64, 64), RESNET_PICK),
    "se_resnext101": ("SEResNeXt101", {}, (1, 3, 64, 64), RESNET_PICK),
    # 65x65: TensorFlow's 'SAME' padding is asymmetric on odd sizes
    "mobilenet_v2_1.0": ("MobileNetV2", {"depth_multiplier": 1.0}, (1, 3, 65, 65),
                         ("expanded_conv_16", "conv1", "squeeze", "softmax")),
    "mobilenet_v2_1.4": ("MobileNetV2", {"depth_multiplier": 1.4}, (1, 3, 64, 64),
                         ("expanded_conv_16", "conv1", "squeeze", "softmax")),
}

# case -> (class name, constructor args, constructor kwargs, input shape)
CONNECTIONS = {
    "conv_2d_activ": ("Conv2DActiv", (3, 4, 3), {"pad": 1}, (2, 3, 7, 6)),
    "conv_2d_activ_lazy_dilate": ("Conv2DActiv", (None, 4, 3), {"pad": 2, "dilate": 2, "stride": 2},
                                  (2, 3, 9, 8)),
    "conv_2d_activ_no_activ": ("Conv2DActiv", (4, 3), {"activ": None, "nobias": True}, (2, 3, 5, 5)),
    "conv_2d_bn_activ": ("Conv2DBNActiv", (3, 4, 3), {"pad": 1}, (2, 3, 7, 6)),
    "conv_2d_bn_activ_lazy_dilate_groups": ("Conv2DBNActiv", (None, 6, 3),
                                            {"pad": 2, "dilate": 2, "groups": 2, "nobias": False}, (2, 4, 9, 8)),
    "conv_2d_bn_activ_bn_kwargs": ("Conv2DBNActiv", (4, 3), {"activ": None, "bn_kwargs": {"eps": 1e-3}},
                                   (2, 3, 5, 5)),
    "seblock": ("SEBlock", (8,), {"ratio": 4}, (2, 8, 5, 4)),
    "separable_conv_2d_bn_activ": ("SeparableConv2DBNActiv", (4, 6, 3), {"pad": 1, "stride": 2},
                                   (2, 4, 7, 6)),
    "separable_conv_2d_bn_activ_dilate": ("SeparableConv2DBNActiv", (4, 6, 3),
                                          {"pad": 2, "dilate": 2, "nobias": True, "dw_activ": chainer.functions.relu,
                                           "pw_activ": None}, (2, 4, 7, 6)),
}


def mobilenet_v2():
    """ChainerCV master's MobileNetV2 class, or None without CHAINERCV_MASTER_SOURCE."""
    source = os.environ.get("CHAINERCV_MASTER_SOURCE")
    if not source:
        return None
    chainercv.links.model.__path__.append(os.path.join(source, "chainercv", "links", "model"))
    from chainercv.links.model.mobilenet import MobileNetV2
    return MobileNetV2


def classes():
    found = {cls.__name__: cls for cls in (Conv2DActiv, Conv2DBNActiv, SEBlock, SeparableConv2DBNActiv, VGG16,
                                           ResNet50, ResNet101, ResNet152, SEResNet50, SEResNet101, SEResNet152,
                                           SEResNeXt50, SEResNeXt101)}
    mobilenet = mobilenet_v2()
    if mobilenet is not None:
        found["MobileNetV2"] = mobilenet
    return found


def seed_of(name: str) -> int:
    return sum(map(ord, name))


def saved_keys(link) -> list:
    """Every key chainer.serializers.save_npz writes for ``link``."""
    buffer = io.BytesIO()
    chainer.serializers.save_npz(buffer, link)
    with np.load(io.BytesIO(buffer.getvalue()), allow_pickle=True) as saved:
        return sorted(saved.files)


def jsonable(value):
    return value.__name__ if callable(value) else value


def write_model(out_dir, name, cls, kwargs, shape, pick):
    model = cls(n_class=N_CLASS, **kwargs)
    x = np.random.RandomState(seed_of(name)).standard_normal(shape).astype(np.float32)
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        model(x)  # initializes the parameters whose input size is deferred
        shapes = _common.fill_seeded(model, seed_of(name))
        model.pick = pick
        outputs = model(x)
    entries = {"config": json.dumps({"class": cls.__name__, "kwargs": kwargs, "n_class": N_CLASS}),
               "seed": np.int64(seed_of(name)), "keys": json.dumps(saved_keys(model)),
               "shapes": json.dumps({k: list(v) for k, v in shapes.items()}, sort_keys=True),
               "layer_names": json.dumps(model.layer_names), "mean": np.asarray(model.mean), "x": x}
    for layer, y in zip(pick, outputs):
        entries[f"out/{layer}"] = y.array
    if cls.__name__ == "MobileNetV2":
        entries["mobilenet_commit"] = MOBILENET_COMMIT
    _common.save_npz(os.path.join(out_dir, f"{name}.npz"), entries)


def write_connections(out_dir, found):
    entries = {}
    for case, (cls_name, args, kwargs, shape) in CONNECTIONS.items():
        seed = seed_of(case)
        x = np.random.RandomState(seed).standard_normal(shape).astype(np.float32)
        link = found[cls_name](*args, **kwargs)
        with chainer.using_config("train", False):
            link(x)
            shapes = _common.fill_seeded(link, seed)
            entries[f"{case}/y"] = link(x).array
        if "BN" in cls_name:
            with chainer.using_config("train", True):
                entries[f"{case}/y_train"] = link(x).array
        config = {"class": cls_name, "args": list(args), "kwargs": {k: jsonable(v) for k, v in kwargs.items()}}
        entries[f"{case}/config"] = json.dumps(config)
        entries[f"{case}/keys"] = json.dumps(saved_keys(link))
        entries[f"{case}/shapes"] = json.dumps({k: list(v) for k, v in shapes.items()}, sort_keys=True)
        entries[f"{case}/seed"] = np.int64(seed)
        entries[f"{case}/x"] = x
    _common.save_npz(os.path.join(out_dir, "connection.npz"), entries)


def pretrained_table(found):
    """Every (class, constructor kwargs, name) ChainerCV resolves, with what it resolves to."""
    tables = [("VGG16", {}, VGG16._models)]
    for n in (50, 101, 152):
        for arch in ("fb", "he"):
            tables.append((f"ResNet{n}", {"arch": arch}, ResNet50._models[arch][n]))
        tables.append((f"SEResNet{n}", {}, SEResNet50._models[n]))
    for n in (50, 101):
        tables.append((f"SEResNeXt{n}", {}, SEResNeXt50._models[n]))
    if "MobileNetV2" in found:
        for multiplier, models in found["MobileNetV2"]._models["tf"].items():
            tables.append(("MobileNetV2", {"depth_multiplier": multiplier}, models))
    rows = []
    for cls_name, kwargs, models in tables:
        for name, model in sorted(models.items()):
            param = model["param"]
            rows.append({"class": cls_name, "kwargs": kwargs, "name": name, "url": model["url"],
                         "n_class": param["n_class"], "mean": np.asarray(param["mean"]).ravel().tolist(),
                         "overwritable": sorted(model.get("overwritable", ())), "cv2": model.get("cv2", False)})
    return rows


def main(out_root):
    out_dir = os.path.join(out_root, "classification")
    os.makedirs(out_dir, exist_ok=True)
    found = classes()
    write_connections(out_dir, found)
    for name, (cls_name, kwargs, shape, pick) in MODELS.items():
        if cls_name not in found:
            print(f"classification: {name} skipped (set CHAINERCV_MASTER_SOURCE for {cls_name})", flush=True)
            continue
        print(f"classification: {name}", flush=True)
        write_model(out_dir, name, found[cls_name], kwargs, shape, pick)
    if "MobileNetV2" in found:
        _common.save_npz(os.path.join(out_dir, "pretrained_models.npz"),
                         {"table": json.dumps(pretrained_table(found)), "mobilenet_commit": MOBILENET_COMMIT})


if __name__ == "__main__":
    main(sys.argv[1])
