"""ChainerCV's FeaturePredictor on a small seeded extractor: what kusari.vision.links.FeaturePredictor must give.

Writes ``OUTDIR/classification/feature_predictor.npz``: ``shapes`` (JSON) of the extractor
(``extractor()``: a PickableSequentialChain ``conv`` (Conv2DBNActiv(3, 4, 3, stride=2)), ``pool`` (mean over
the spatial axes), ``fc`` (Linear(4, 5)), filled by ``_common.fill_seeded``), ``seed``, ``mean`` (the
extractor's), ``img0`` and ``img1`` (CHW float32 images of different sizes), and for each case of ``CASES``
``<case>/config`` (JSON: FeaturePredictor's arguments and the extractor's pick) and ``<case>/out<i>``
(``predict([img0, img1])``'s outputs; ChainerCV's default cv2 resize backend).
"""
import json
import os
import sys

import numpy as np

import _common
import chainer.functions as F
from chainercv.links import Conv2DBNActiv, FeaturePredictor, PickableSequentialChain
import chainer.links as L

SEED = 7
# case -> (FeaturePredictor kwargs, extractor pick)
CASES = {
    "center": ({"crop_size": 16}, "fc"),
    "center_scale": ({"crop_size": (12, 14), "scale_size": 18}, "fc"),
    "center_resize_mean": ({"crop_size": 16, "scale_size": (20, 22), "mean": "zeros"}, "pool"),
    "ten": ({"crop_size": 14, "crop": "10"}, "fc"),
    "ten_scale_two_outputs": ({"crop_size": (12, 10), "scale_size": 16, "crop": "10"}, ("conv", "fc")),
}


def extractor():
    chain = PickableSequentialChain()
    with chain.init_scope():
        chain.conv = Conv2DBNActiv(3, 4, 3, stride=2)
        chain.pool = lambda x: F.average(x, axis=(2, 3))
        chain.fc = L.Linear(4, 5)
    return chain


def main(out_root):
    out_dir = os.path.join(out_root, "classification")
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.RandomState(SEED)
    images = [rng.uniform(0, 255, (3, 20, 24)).astype(np.float32),
              rng.uniform(0, 255, (3, 18, 30)).astype(np.float32)]
    chain = extractor()
    shapes = _common.fill_seeded(chain, SEED)
    chain.mean = rng.uniform(100, 130, (3, 1, 1)).astype(np.float32)
    entries = {"shapes": json.dumps({k: list(v) for k, v in shapes.items()}, sort_keys=True),
               "seed": np.int64(SEED), "mean": chain.mean, "img0": images[0], "img1": images[1]}
    for case, (kwargs, pick) in CASES.items():
        chain.pick = pick
        given = dict(kwargs)
        if given.get("mean") == "zeros":
            given["mean"] = np.zeros((3, 1, 1), np.float32)
        # copies: ChainerCV's predict subtracts the mean in place in an image that scaling leaves as it is
        outputs = FeaturePredictor(chain, **given).predict([img.copy() for img in images])
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        entries[f"{case}/config"] = json.dumps({"kwargs": kwargs, "pick": pick})
        for i, y in enumerate(outputs):
            entries[f"{case}/out{i}"] = y
    _common.save_npz(os.path.join(out_dir, "feature_predictor.npz"), entries)


if __name__ == "__main__":
    main(sys.argv[1])
