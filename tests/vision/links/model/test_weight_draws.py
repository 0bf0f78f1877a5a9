"""ResNet-50 (fb, he), SE-ResNet-50 and SE-ResNeXt-50 against ChainerCV on several weight draws, two images and
both kernel paths (tools/chainercv_fixtures/weight_draws.py).

"To float32 rounding" is measured, not assumed: the fixture holds ChainerCV's float32 outputs and the float64
answer of the same network, and kusari's float32 outputs must be as close to that answer as ChainerCV's own
(within a factor of 4, and never held tighter than 1e-4 of the output's magnitude). By the triangle
inequality kusari then agrees with ChainerCV to within 5 times ChainerCV's own rounding error.
"""
import json
import pathlib

import numpy
import pytest

import kusari
import vision_classification_parity as parity
from kusari.vision.links import ResNet50, SEResNet50, SEResNeXt50

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "weight_draws"
CLASSES = {"ResNet50": ResNet50, "SEResNet50": SEResNet50, "SEResNeXt50": SEResNeXt50}
MODELS = ("resnet50_fb", "resnet50_he", "se_resnet50", "se_resnext50")
DRAWS = ("init0", "init1", "seeded1", "seeded2")
FLOOR = 1e-4      # float32 rounding of a well-conditioned output, relative to its magnitude
FACTOR = 4        # kusari may be this many times farther from float64 than ChainerCV is


def load(name: str) -> dict:
    with numpy.load(FIXTURES / f"{name}.npz") as data:
        return {key: data[key] for key in data.files}


def build(fixture: dict, draw: str):
    """The fixture's model with the draw's weights: ChainerCV's initializers after ``numpy.random.seed``
    (kusari's draw the same numbers in the same order), or the seeded arrays; and the draw's input."""
    config = json.loads(str(fixture["config"]))
    kind, seed = str(fixture[f"{draw}/kind"]), int(fixture[f"{draw}/seed"])
    x = parity.seeded_weights.seeded_image_batch(seed)
    numpy.testing.assert_allclose(x.astype(numpy.float64).sum(), fixture[f"{draw}/x_sum"], rtol=1e-12)
    state = numpy.random.get_state()
    try:
        numpy.random.seed(seed)
        model = CLASSES[config["class"]](n_class=config["n_class"], **config["kwargs"])
        with kusari.using_config("train", False), kusari.no_backprop_mode():
            model(x)   # draws the parameters whose input size is deferred, as ChainerCV's first forward does
    finally:
        numpy.random.set_state(state)
    if kind == "seeded":
        saved = {}
        kusari.serializers.DictionarySerializer(saved).save(model)
        parity.fill_seeded(model, {key: a.shape for key, a in saved.items() if a.dtype.kind == "f"}, seed)
    sums = json.loads(str(fixture[f"{draw}/weight_sums"]))
    ours = {path.lstrip("/"): float(param.array.astype(numpy.float64).sum()) for path, param in model.namedparams()}
    assert sorted(ours) == sorted(sums)
    for key, value in sums.items():
        assert ours[key] == pytest.approx(value, rel=1e-6, abs=1e-6), f"{draw}: weights of {key} differ"
    model.pick = config["pick"]
    return model, x


@pytest.mark.slow
@pytest.mark.parametrize("name", MODELS)
def test_matches_chainercv_to_float32_rounding(name):
    fixture = load(name)
    for draw in DRAWS:
        model, x = build(fixture, draw)
        for mode in ("never", "always"):
            with kusari.using_config("use_onednn", mode), kusari.using_config("train", False), \
                    kusari.no_backprop_mode():
                outputs = model(x)
            for layer, y in zip(model.pick, outputs):
                exact = fixture[f"{draw}/out64/{layer}"].astype(numpy.float64)
                scale = numpy.abs(exact).max()
                theirs = numpy.abs(fixture[f"{draw}/out/{layer}"] - exact).max() / scale
                ours = numpy.abs(y.array - exact).max() / scale
                assert y.dtype == numpy.float32 and y.shape == exact.shape
                assert ours <= max(FLOOR, FACTOR * theirs), (
                    f"{name} {draw} {layer} use_onednn={mode}: kusari is {ours:.2e} (relative) from float64, "
                    f"ChainerCV {theirs:.2e}")
