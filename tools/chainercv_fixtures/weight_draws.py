"""ChainerCV's ResNet-50 (fb, he), SE-ResNet-50 and SE-ResNeXt-50 on several weight draws and two images, with
a float64 reference: what kusari.vision's must reproduce to float32 rounding.

Writes ``OUTDIR/weight_draws/<model>.npz`` for each model of ``MODELS`` (``n_class`` 10, picked layers
``PICK``), one group of entries per draw of ``DRAWS``, under ``<draw>/``:

- ``kind`` (``'init'``: ChainerCV's own initializers after ``numpy.random.seed(seed)``, the parameters
  whose input size is deferred drawn by the first forward; ``'seeded'``: ``_common.fill_seeded`` with
  ``seed``, weights scaled so that activations stay of order one through the depth), ``seed``,
  ``weight_sums`` (JSON ``{key: float64 sum}`` of every float array ``save_npz`` writes, so that a test
  tells "other weights" from "other outputs"),
- ``x_sum``: the float64 sum of the input, ``seeded_weights.seeded_image_batch(seed)`` (two 64x64 images:
  uniform noise, and a ramp with a bright square), which the test draws again,
- ``out/<layer>``: ChainerCV's float32 outputs (test mode),
- ``out64/<layer>``: the same model and weights run in float64, the exact answer that float32 rounds
  (stored rounded to float32: 6e-8 relative, far below what is compared).

The picked layers are pooled ones (``pool5`` and after) so that the fixtures stay small (about 0.1 MB a
model); a stride or padding misplaced anywhere still moves them.

A float32 network is only as well conditioned as its weights: on ChainerCV's own initializers (He normal,
batch normalization statistics of 0 and 1) activations grow to about 1e3-1e4 through the stages, and
SE-ResNet-50's saturated squeeze-and-excitation gates amplify rounding, so that ChainerCV's own float32
result is up to about 1e-3 away from float64 there. The float64 reference lets a test hold kusari to
ChainerCV's own rounding error instead of a fixed 1e-4.
"""
import json
import os
import sys

import numpy as np

import _common
import seeded_weights
import chainer
from chainercv.links import ResNet50, SEResNet50, SEResNeXt50

N_CLASS = 10
PICK = ("pool5", "fc6", "prob")
MODELS = {
    "resnet50_fb": (ResNet50, {"arch": "fb"}),
    "resnet50_he": (ResNet50, {"arch": "he"}),
    "se_resnet50": (SEResNet50, {}),
    "se_resnext50": (SEResNeXt50, {}),
}
# draw -> (kind, seed)
DRAWS = {"init0": ("init", 0), "init1": ("init", 1), "seeded1": ("seeded", 1), "seeded2": ("seeded", 2)}


def to_float64(link: chainer.Link) -> None:
    """Every float parameter and persistent array of ``link`` cast to float64, in place."""
    for param in link.params():
        param.array = param.array.astype(np.float64)
    for sub in link.links():
        for name in sub._persistent:
            value = getattr(sub, name)
            if isinstance(value, np.ndarray) and value.dtype.kind == "f":
                setattr(sub, name, value.astype(np.float64))


def weight_sums(link: chainer.Link) -> dict:
    return {path.lstrip("/"): float(param.array.astype(np.float64).sum())
            for path, param in sorted(link.namedparams())}


def write_model(out_dir: str, name: str, cls, kwargs: dict) -> None:
    entries = {}
    for draw, (kind, seed) in DRAWS.items():
        x = seeded_weights.seeded_image_batch(seed)
        np.random.seed(seed)
        model = cls(n_class=N_CLASS, **kwargs)
        with chainer.using_config("train", False), chainer.no_backprop_mode():
            model(x)   # draws the deferred parameters (init) or initializes them (seeded)
            if kind == "seeded":
                _common.fill_seeded(model, seed)
            model.pick = PICK
            outputs = [y.array for y in model(x)]
            sums = weight_sums(model)
            to_float64(model)
            outputs64 = [y.array for y in model(x.astype(np.float64))]
        entries.update({f"{draw}/kind": kind, f"{draw}/seed": np.int64(seed),
                        f"{draw}/x_sum": np.float64(x.astype(np.float64).sum()),
                        f"{draw}/weight_sums": json.dumps(sums, sort_keys=True)})
        for layer, y, y64 in zip(PICK, outputs, outputs64):
            assert y64.dtype == np.float64, (name, layer)
            entries[f"{draw}/out/{layer}"] = y
            entries[f"{draw}/out64/{layer}"] = y64.astype(np.float32)
    entries["config"] = json.dumps({"class": cls.__name__, "kwargs": kwargs, "n_class": N_CLASS,
                                    "pick": list(PICK)})
    _common.save_npz(os.path.join(out_dir, f"{name}.npz"), entries)


def main(out_root: str) -> None:
    out_dir = os.path.join(out_root, "weight_draws")
    os.makedirs(out_dir, exist_ok=True)
    for name, (cls, kwargs) in MODELS.items():
        print(f"weight_draws: {name}", flush=True)
        write_model(out_dir, name, cls, kwargs)


if __name__ == "__main__":
    main(sys.argv[1])
