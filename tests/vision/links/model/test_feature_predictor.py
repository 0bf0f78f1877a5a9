"""FeaturePredictor against ChainerCV's fixture (a small seeded extractor), and its input checks."""
import functools

import numpy
import pytest

import kusari.functions as F
import kusari.links as L
import vision_classification_parity as parity
from kusari.vision.links import Conv2DBNActiv, FeaturePredictor, PickableSequentialChain

FIXTURE = parity.load_fixture("feature_predictor.npz")
CASES = sorted({key.split("/")[0] for key in FIXTURE if "/" in key})


def _extractor():
    """The fixture's extractor, with its seeded weights and mean."""
    chain = PickableSequentialChain()
    with chain.init_scope():
        chain.conv = Conv2DBNActiv(3, 4, 3, stride=2)
        chain.pool = functools.partial(F.average, axis=(2, 3))
        chain.fc = L.Linear(4, 5)
    parity.check_structure(chain, dict(FIXTURE, keys=list(FIXTURE["shapes"]) + ["conv/bn/N"]))
    parity.fill_seeded(chain, FIXTURE["shapes"], int(FIXTURE["seed"]))
    chain.mean = FIXTURE["mean"]
    return chain


@pytest.mark.filterwarnings("ignore:FeaturePredictor.predict. four-dimensional features")
@pytest.mark.parametrize("case", CASES)
def test_matches_chainercv(case):
    config = parity.load_fixture("feature_predictor.npz", case + "/")["config"]
    kwargs = dict(config["kwargs"])
    if kwargs.get("mean") == "zeros":
        kwargs["mean"] = numpy.zeros((3, 1, 1), numpy.float32)
    if isinstance(kwargs["crop_size"], list):
        kwargs["crop_size"] = tuple(kwargs["crop_size"])
    if isinstance(kwargs.get("scale_size"), list):
        kwargs["scale_size"] = tuple(kwargs["scale_size"])
    extractor = _extractor()
    extractor.pick = config["pick"]
    outputs = FeaturePredictor(extractor, **kwargs).predict([FIXTURE["img0"], FIXTURE["img1"]])
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    expected = sorted(key for key in FIXTURE if key.startswith(case + "/out"))
    assert len(outputs) == len(expected)
    for y, key in zip(outputs, expected):
        parity.assert_close(y, FIXTURE[key], key)


def test_ten_crops_of_spatial_features_warn():
    extractor = _extractor()
    extractor.pick = "conv"
    with pytest.warns(UserWarning, match="four-dimensional features are averaged"):
        y = FeaturePredictor(extractor, 14, crop="10").predict([FIXTURE["img0"]])
    assert y.shape == (1, 4, 6, 6)


def test_the_images_are_not_modified():
    extractor = _extractor()
    img = FIXTURE["img1"].copy()  # its shorter side is 18: scale(img, 18) leaves it as it is
    FeaturePredictor(extractor, 16, scale_size=18).predict([img])
    numpy.testing.assert_array_equal(img, FIXTURE["img1"])


def test_integer_images_are_taken_as_float32():
    extractor = _extractor()
    img = numpy.round(FIXTURE["img0"]).astype(numpy.uint8)
    y = FeaturePredictor(extractor, 16).predict([img])
    numpy.testing.assert_array_equal(y, FeaturePredictor(extractor, 16).predict([img.astype(numpy.float32)]))
    assert y.dtype == numpy.float32


def test_bad_input():
    extractor = _extractor()
    model = FeaturePredictor(extractor, 16)
    with pytest.raises(ValueError, match=r"FeaturePredictor.predict: imgs\[1\] looks like an HWC image "
                                         r"\(shape=\(20, 24, 3\), dtype=float32\)"):
        model.predict([FIXTURE["img0"], FIXTURE["img0"].transpose(1, 2, 0).copy()])
    with pytest.raises(ValueError, match=r"imgs\[0\] must have 3 channels, got 1"):
        model.predict([FIXTURE["img0"][:1]])
    with pytest.raises(ValueError, match="center_crop: size \\(32, 32\\) is larger than the image"):
        FeaturePredictor(extractor, 32).predict([FIXTURE["img0"]])
    with pytest.raises(ValueError, match="FeaturePredictor: crop must be 'center' or '10', got '5'"):
        FeaturePredictor(extractor, 16, crop="5")
    with pytest.raises(ValueError, match="FeaturePredictor: mean is None and the extractor \\(Linear\\) has "
                                         "no mean"):
        FeaturePredictor(L.Linear(3, 2), 16)
