"""generate_anchor_base against ChainerCV's fixture, and its checks."""
import numpy
import pytest

from kusari.vision.links.model.faster_rcnn import generate_anchor_base


@pytest.mark.parametrize("case", ["default", "custom"])
def test_matches_chainercv(utils_fixture, case):
    get = lambda key: utils_fixture[f"anchor_base/{case}/{key}"]
    kwargs = {"base_size": float(get("base_size")), "ratios": get("ratios").tolist(),
              "anchor_scales": get("anchor_scales").tolist()}
    out = generate_anchor_base(**kwargs) if case == "custom" else generate_anchor_base()
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out, get("out"))


def test_areas_and_ratios():
    anchor = generate_anchor_base(base_size=4, ratios=[0.25, 4], anchor_scales=[1, 3]).astype(numpy.float64)
    h, w = anchor[:, 2] - anchor[:, 0], anchor[:, 3] - anchor[:, 1]
    numpy.testing.assert_allclose(h * w, [16, 144, 16, 144], rtol=1e-6)
    numpy.testing.assert_allclose(h / w, [0.25, 0.25, 4, 4], rtol=1e-6)
    numpy.testing.assert_allclose((anchor[:, :2] + anchor[:, 2:]) / 2, 2.0)


@pytest.mark.parametrize("kwargs, argname", [({"ratios": [1, 0]}, "ratios"), ({"anchor_scales": [-2]}, "anchor_scales"),
                                             ({"base_size": 0}, "base_size"), ({"ratios": "wide"}, "ratios")])
def test_bad_arguments(kwargs, argname):
    with pytest.raises(ValueError, match=f"generate_anchor_base: {argname} must be"):
        generate_anchor_base(**kwargs)
