"""Reading ChainerCV's FPN fixtures (tools/chainercv_fixtures/fpn.py) and rebuilding its models.

``units.npz`` holds the parts on fixed inputs; ``<model>.npz`` a model's key list and the shapes of its
float arrays, the seeded weights' seed and rescaling, the inputs' seeds and shapes, and what ChainerCV's
``predict`` returned and computed on the way. The tests draw the same weights (tests/vision/seeded_weights.py),
write them into an NPZ of ChainerCV's layout, build the kusari model from it with ``pretrained_model=``
(its strict, exact-keys load) and compare.
"""
import importlib.util
import json
import pathlib

import numpy

import kusari

FIXTURES = pathlib.Path(__file__).resolve().parents[3] / "fixtures" / "fpn"

_spec = importlib.util.spec_from_file_location("vision_seeded_weights",
                                               pathlib.Path(__file__).resolve().parents[3] / "seeded_weights.py")
seeded_weights = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seeded_weights)

_cache = {}


def load(name: str) -> dict:
    """The entries of ``FIXTURES/<name>.npz`` (read once)."""
    if name not in _cache:
        with numpy.load(FIXTURES / f"{name}.npz") as data:
            _cache[name] = {key: data[key] for key in data.files}
    return _cache[name]


def entries(data: dict, prefix: str) -> dict:
    """The entries under ``prefix/``, prefix removed."""
    return {key[len(prefix) + 1:]: value for key, value in data.items() if key.startswith(prefix + "/")}


def listed(data: dict, key: str) -> list:
    """``key/0``, ``key/1``, ... in order."""
    out = []
    while f"{key}/{len(out)}" in data:
        out.append(data[f"{key}/{len(out)}"])
    return out


def close(actual, expected, name: str = "", rtol: float = 1e-4) -> None:
    """Equal shape and float32 dtype, values within ``rtol`` relative to the larger of 1 and the
    expected magnitude."""
    actual = actual.array if isinstance(actual, kusari.Variable) else numpy.asarray(actual)
    assert actual.dtype == numpy.float32, (name, actual.dtype)
    assert actual.shape == expected.shape, (name, actual.shape, expected.shape)
    scale = max(1.0, float(numpy.abs(expected).max())) if expected.size else 1.0
    numpy.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * scale, err_msg=name)


def seeded_file(fixture: dict, path) -> str:
    """An NPZ in ChainerCV's layout with the fixture's keys: its float arrays drawn as ChainerCV's
    model was filled (seeded, then rescaled), the others (batch normalization's counters) 0."""
    shapes = json.loads(str(fixture["shapes"]))
    arrays = seeded_weights.seeded_arrays(shapes, int(fixture["seed"]))
    for key, factor in json.loads(str(fixture["rescale"])).items():
        arrays[key] = arrays[key] * numpy.float32(factor)
    for key in json.loads(str(fixture["keys"])):
        arrays.setdefault(key, numpy.array(0))
    numpy.savez(path, **arrays)
    return str(path)


def _record(obj, method: str, store: list) -> None:
    """Wrap ``obj.method`` so that each call appends its (args, result) to ``store``."""
    original = getattr(obj, method)

    def wrapper(*args):
        out = original(*args)
        store.append((args, out))
        return out
    object.__setattr__(obj, method, wrapper)


def check_model(cls, name: str, tmp_path) -> None:
    """``cls``, configured and seeded as the fixture ``name`` and built from a ChainerCV-layout NPZ of its
    weights (``pretrained_model=``), saves ChainerCV's keys and shapes, and its ``predict`` returns and
    computes on the way what ChainerCV's did: boxes, scores and network outputs within 1e-4, labels and
    RoI indices identical, masks identical but for pixels whose probability is within 1e-4 of the
    threshold (see ``_check_masks``)."""
    fixture = load(name)
    config = json.loads(str(fixture["config"]))
    assert config["class"] == cls.__name__
    model = cls(n_fg_class=config["n_fg_class"], pretrained_model=seeded_file(fixture, tmp_path / "seeded.npz"),
                **config["kwargs"])
    saved = {}
    kusari.serializers.DictionarySerializer(saved).save(model)
    assert sorted(saved) == json.loads(str(fixture["keys"]))
    for key, shape in json.loads(str(fixture["shapes"])).items():
        assert saved[key].shape == tuple(shape), key
    model.nms_thresh, model.score_thresh = config["nms_thresh"], config["score_thresh"]
    if config["rpn_limits"]:
        model.rpn._test_nms_limit_pre, model.rpn._test_nms_limit_post = config["rpn_limits"]

    calls = {key: [] for key in ("prepare", "extractor", "rpn", "decode", "bbox_head", "mask_decode")}
    _record(model, "prepare", calls["prepare"])
    _record(model.extractor, "forward", calls["extractor"])
    _record(model.rpn, "forward", calls["rpn"])
    _record(model.rpn, "decode", calls["decode"])
    if hasattr(model, "bbox_head"):
        _record(model.bbox_head, "forward", calls["bbox_head"])
    if hasattr(model, "mask_head"):
        _record(model.mask_head, "decode", calls["mask_decode"])
    seed = int(fixture["seed"])
    imgs = [seeded_weights.seeded_uniform(seed + i, tuple(shape), 0, 255)
            for i, shape in enumerate(fixture["shapes_img"])]
    outputs = model.predict(imgs)

    (_, (x, scales)), = calls["prepare"]
    assert scales == fixture["scales"].tolist()
    close(x.sum(axis=(2, 3)), fixture["x_sum"], "x_sum")
    (_, hs), = calls["extractor"]
    for l, h in enumerate(hs):
        close(h.array.sum(axis=1), fixture[f"hs_sum/{l}"], f"hs_sum/{l}")
        close(h.array.mean(axis=(2, 3)), fixture[f"hs_mean/{l}"], f"hs_mean/{l}")
    if "rpn_locs/0" in fixture:
        (_, (locs, confs)), = calls["rpn"]
        for l, (loc, conf) in enumerate(zip(locs, confs)):
            close(loc, fixture[f"rpn_locs/{l}"], f"rpn_locs/{l}")
            close(conf, fixture[f"rpn_confs/{l}"], f"rpn_confs/{l}")
    (_, (rois, roi_indices)), = calls["decode"]
    numpy.testing.assert_array_equal(roi_indices, fixture["rpn_roi_indices"])
    close(rois, fixture["rpn_rois"], "rpn_rois")
    if calls["bbox_head"]:
        (_, (locs, confs)), = calls["bbox_head"]
        close(locs, fixture["head_locs"], "head_locs")
        close(confs, fixture["head_confs"], "head_confs")
    if calls["mask_decode"]:
        ((segms, _, labels, _), _), = calls["mask_decode"]
        for i, (segm, label) in enumerate(zip(segms, labels)):
            close(segm[numpy.arange(len(label)), label + 1], fixture[f"segms/{i}"], f"segms/{i}")

    return_values = config["kwargs"].get("return_values", cls.__init__.__defaults__[2])
    assert len(outputs) == len(return_values)
    for value, arrays in zip(return_values, outputs):
        assert len(arrays) == len(imgs)
        for i, array in enumerate(arrays):
            key = f"{value}/{i}"
            if value == "masks":
                expected = numpy.unpackbits(fixture[key], axis=-1, count=int(fixture[key + "/shape"][-1]))
                _check_masks(array, expected.astype(bool), calls["mask_decode"][0][0], fixture, i)
            elif value == "labels":
                assert array.dtype == numpy.int32
                numpy.testing.assert_array_equal(array, fixture[key], err_msg=key)
            else:
                close(array, fixture[key], key)


def _check_masks(masks, expected, decode_args, fixture: dict, i: int, tolerance: float = 1e-4) -> None:
    """Image ``i``'s masks against ChainerCV's.

    A mask thresholds a resized probability at 0.5, and the probabilities match ChainerCV's within
    ``tolerance``: ChainerCV's mask must lie between the masks of kusari's probabilities minus and
    plus ``tolerance``, so that the two differ only at pixels that close to the threshold. Pasting
    ChainerCV's own probabilities into ChainerCV's boxes (when the fixture has them) gives ChainerCV's
    masks exactly.
    """
    from kusari.vision.links.model.fpn import segm_to_mask
    segms, bboxes, labels, sizes = decode_args
    assert masks.dtype == bool and masks.shape == expected.shape
    picked = segms[i][numpy.arange(len(labels[i])), labels[i] + 1]
    lower = segm_to_mask(picked - tolerance, bboxes[i], sizes[i])
    upper = segm_to_mask(picked + tolerance, bboxes[i], sizes[i])
    assert (lower <= expected).all() and (expected <= upper).all(), f"masks/{i}"
    assert (lower <= masks).all() and (masks <= upper).all(), f"masks/{i}"
    assert (upper & ~lower).sum() <= 1e-3 * expected.size, f"masks/{i}: too many pixels at the threshold"
    if f"bboxes/{i}" in fixture:
        numpy.testing.assert_array_equal(
            segm_to_mask(fixture[f"segms/{i}"], fixture[f"bboxes/{i}"], sizes[i]), expected, err_msg=f"masks/{i}")
