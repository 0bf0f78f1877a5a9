"""Conv2DBNActiv against ChainerCV's fixtures, and its argument forms."""
import numpy
import pytest

import kusari
import kusari.functions as F
import vision_classification_parity as parity
from kusari.vision.links import Conv2DBNActiv


@pytest.mark.parametrize("case", parity.connection_cases("Conv2DBNActiv"))
def test_matches_chainercv(case, tmp_path):
    parity.check_connection_case(Conv2DBNActiv, case, tmp_path)


def test_defaults_no_bias_and_deferred_in_channels():
    link = Conv2DBNActiv(6, 3, groups=2, dilate=2, pad=2)
    assert link.conv.b is None and link.conv.W.array is None
    y = link(numpy.ones((2, 4, 7, 7), numpy.float32))
    assert y.shape == (2, 6, 7, 7)
    assert link.conv.W.shape == (6, 2, 3, 3)
    assert sorted(parity.saved_shapes(link)) == ["bn/N", "bn/avg_mean", "bn/avg_var", "bn/beta", "bn/gamma",
                                                 "conv/W"]


def test_bn_kwargs_reach_the_normalization():
    link = Conv2DBNActiv(3, 4, 1, bn_kwargs={"eps": 1e-3, "decay": 0.5})
    assert link.bn.eps == 1e-3 and link.bn.decay == 0.5


def test_test_mode_is_conv_then_fixed_normalization_then_activation():
    numpy.random.seed(1)
    link = Conv2DBNActiv(2, 3, 3, activ=F.tanh)
    link.bn.avg_mean[:] = numpy.random.standard_normal(3)
    link.bn.avg_var[:] = 1 + numpy.random.rand(3)
    x = numpy.random.standard_normal((2, 2, 5, 5)).astype(numpy.float32)
    conv = F.convolution_2d(x, link.conv.W).array
    mean, var = link.bn.avg_mean[:, None, None], link.bn.avg_var[:, None, None]
    expected = numpy.tanh((conv - mean) / numpy.sqrt(var + link.bn.eps))
    with kusari.using_config("train", False):
        numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-5, atol=1e-6)


def test_groups_must_divide_the_channels():
    with pytest.raises(ValueError, match="not divisible by groups=2"):
        Conv2DBNActiv(3, 5, 3, groups=2)
