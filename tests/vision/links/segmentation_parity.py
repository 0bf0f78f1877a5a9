"""Comparing kusari.vision's semantic segmentation models with ChainerCV's fixtures
(tools/chainercv_fixtures/segmentation.py).

A model fixture holds the model's key list and float shapes, an input and ChainerCV's raw scores on weights
drawn by tests/vision/seeded_weights.py, and predict cases: images, ChainerCV's label maps and the score maps
it took their argmax of. The tests draw the same weights, save them with kusari (ChainerCV's layout), build
the model with ``pretrained_model=`` that file (strict, exact-key loading) and compare: raw scores and
predict's score maps within 1e-4 relative, label maps identical except at ties (pixels where ChainerCV's
scores of the two labels are within that tolerance).
"""
import contextlib
import json
import pathlib

import numpy

import kusari
import kusari.functions as F
import vision_classification_parity as classification

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "segmentation"
JSON_KEYS = ("config", "keys", "shapes")
assert_close = classification.assert_close


def load_fixture(file: str, prefix: str = "") -> dict:
    """The entries of ``FIXTURES/file`` under ``prefix`` (prefix removed); JSON entries decoded."""
    with numpy.load(FIXTURES / file) as data:
        out = {}
        for key in data.files:
            if key.startswith(prefix):
                name = key[len(prefix):]
                value = data[key]
                out[name] = json.loads(str(value)) if name.split("/")[-1] in JSON_KEYS else value
    return out


def seeded_model(make, fixture: dict, tmp_path):
    """A ``make(pretrained_model=path)`` model whose weights are the fixture's, saved by kusari to ``path``
    from a ``make()`` model (which must save exactly ChainerCV's keys and shapes)."""
    path = classification.seeded_file(make, fixture["x"], fixture, tmp_path)
    return make(pretrained_model=path)


@contextlib.contextmanager
def argmax_inputs():
    """Records the arrays given to numpy.argmax (predict's score maps) while active."""
    seen = []
    original = numpy.argmax

    def argmax(a, *args, **kwargs):
        seen.append(numpy.array(a))
        return original(a, *args, **kwargs)

    numpy.argmax = argmax
    try:
        yield seen
    finally:
        numpy.argmax = original


def predict_cases(fixture: dict) -> list:
    """``(case, attributes, images, labels, scores)`` for each predict case of a model fixture."""
    cases = []
    for case in sorted({key.split("/")[0] for key in fixture if key.endswith("/n")}):
        n = int(fixture[f"{case}/n"])
        cases.append((case, fixture[f"{case}/config"], *([fixture[f"{case}/{kind}/{i}"] for i in range(n)]
                                                         for kind in ("img", "label", "score"))))
    return cases


def count_ties(label, expected_label, expected_score, name: str) -> int:
    """Assert ``label`` is ``expected_label`` except at ties; return how many pixels differ (all ties).

    A pixel may differ only where ChainerCV's score of ``label``'s class is within 1e-4 (relative to
    the scores' magnitude) of ChainerCV's score of its own label.
    """
    assert label.dtype == numpy.int32 and label.shape == expected_label.shape, name
    differ = numpy.nonzero(label != expected_label)
    if not differ[0].size:
        return 0
    tolerance = 1e-4 * max(1.0, float(numpy.abs(expected_score).max()))
    ours = expected_score[(label[differ],) + differ]
    theirs = expected_score[(expected_label[differ],) + differ]
    worst = float(numpy.max(theirs - ours))
    assert worst <= tolerance, f"{name}: {differ[0].size} labels differ, not ties (score gap up to {worst:.3g})"
    return int(differ[0].size)


def check_predict(model, fixture: dict, name: str, score_factor=lambda attributes: 1.0, tolerance=1e-4) -> dict:
    """``model.predict`` on each case's images gives ChainerCV's score maps (times ``score_factor`` of the
    case's attributes) within ``tolerance`` and its labels up to ties; returns ``{case: tied pixels that differ}``."""
    ties = {}
    for case, attributes, images, labels, scores in predict_cases(fixture):
        for key, value in attributes.items():
            setattr(model, key, tuple(value) if isinstance(value, list) else value)
        ties[case] = 0
        for i, (img, expected_label, expected_score) in enumerate(zip(images, labels, scores)):
            img = img.astype(numpy.float32)
            original = img.copy()
            with argmax_inputs() as seen:
                label, = model.predict([img])
            numpy.testing.assert_array_equal(img, original, err_msg="predict wrote into the image")
            assert_close(seen[-1], expected_score * score_factor(attributes), f"{name}/{case}/{i}: score", tolerance)
            ties[case] += count_ties(label, expected_label, expected_score, f"{name}/{case}/{i}")
    return ties


def check_part(cls, fixture: dict, tmp_path) -> None:
    """``cls`` built as the fixture's part gives ChainerCV's outputs after a save/strict-load round trip
    of seeded weights (test mode)."""
    config = fixture["config"]
    kwargs = {key: ([getattr(F, v) for v in value] if key.endswith("activ_list") else value)
              for key, value in config["kwargs"].items()}
    xs = [fixture[f"x{i}"] for i in range(sum(key.startswith("x") for key in fixture))]

    def make():
        return cls(*config["args"], **kwargs)

    link = make()
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        link(*xs)
    classification.check_structure(link, fixture)
    classification.fill_seeded(link, fixture["shapes"], int(fixture["seed"]))
    path = str(tmp_path / "part.npz")
    kusari.serializers.save_npz(path, link)
    loaded = make()
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        loaded(*xs)  # lazy parameters take their shapes
        kusari.serializers.load_npz(path, loaded)
        ys = loaded(*xs)
    ys = ys if isinstance(ys, tuple) else (ys,)
    assert len(ys) == sum(key.startswith("y") for key in fixture)
    for i, y in enumerate(ys):
        assert_close(y, fixture[f"y{i}"], f"{config['class']}: output {i}")
