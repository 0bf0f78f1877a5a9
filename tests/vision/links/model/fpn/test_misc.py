"""kusari.vision.links.model.fpn.misc against ChainerCV's fixtures: smooth_l1, scale_img; and the host-side
sort and draw."""
import numpy
import pytest

import kusari
import vision_fpn_parity as parity
from kusari.vision.links.model.fpn import misc


def test_smooth_l1_matches_chainercv():
    case = parity.entries(parity.load("units"), "smooth_l1")
    y = misc.smooth_l1(case["x"], case["t"], float(case["beta"]))
    parity.close(y, case["y"], rtol=1e-6)


def test_smooth_l1_is_quadratic_then_linear():
    x = numpy.array([0.05, -0.3, 2.0], numpy.float32)
    y = misc.smooth_l1(x, numpy.zeros(3, numpy.float32), 0.1).array
    numpy.testing.assert_allclose(y, [0.05 ** 2 / 0.2, 0.3 - 0.05, 2.0 - 0.05], rtol=1e-6)


@pytest.mark.parametrize("k", [0, 1])
def test_scale_img_matches_chainercv(k):
    units = parity.load("units")
    case = parity.entries(units, f"scale_img/{k}")
    out, scale = misc.scale_img(units["scale_img/img"], int(case["min_size"]), int(case["max_size"]))
    assert isinstance(scale, float) and scale == float(case["scale"])
    parity.close(out, case["out"], rtol=1e-6)


def test_scale_img_rejects_hwc_and_empty_images():
    with pytest.raises(ValueError, match="scale_img: img looks like an HWC image"):
        misc.scale_img(numpy.zeros((20, 30, 3), numpy.float32), 10, 20)
    with pytest.raises(ValueError, match=r"scale_img: img must not be empty, got shape=\(3, 0, 5\)"):
        misc.scale_img(numpy.zeros((3, 0, 5), numpy.float32), 10, 20)


def test_argsort_is_stable_and_choice_draws_as_numpy():
    x = numpy.array([3, 1, 2, 1, 3, 1], numpy.float32)
    numpy.testing.assert_array_equal(misc.argsort(x), [1, 3, 5, 2, 0, 4])
    numpy.random.seed(4)
    drawn = misc.choice(numpy.arange(10, 20), 4)
    numpy.random.seed(4)
    numpy.testing.assert_array_equal(drawn, numpy.random.choice(numpy.arange(10, 20), 4, replace=False))


def test_clipped_exp_keeps_float32_and_clips():
    y = misc.clipped_exp(numpy, numpy.array([0.0, 10.0], numpy.float32))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y, [1.0, 1000 / 16], rtol=1e-6)


def test_as_variable_wraps_a_loss_nothing_contributed_to():
    v = misc.as_variable(numpy.zeros((), numpy.float32))
    assert isinstance(v, kusari.Variable) and v.dtype == numpy.float32
