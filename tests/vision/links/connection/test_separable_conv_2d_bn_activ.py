"""SeparableConv2DBNActiv against ChainerCV's fixtures, and its argument checks."""
import numpy
import pytest

import vision_classification_parity as parity
from kusari import initializers
from kusari.vision.links import SeparableConv2DBNActiv


@pytest.mark.parametrize("case", parity.connection_cases("SeparableConv2DBNActiv"))
def test_matches_chainercv(case, tmp_path):
    parity.check_connection_case(SeparableConv2DBNActiv, case, tmp_path)


def test_depthwise_then_pointwise_shapes():
    link = SeparableConv2DBNActiv(4, 6, 3, pad=1)
    assert link.depthwise.W.shape == (4, 1, 3, 3) and link.pointwise.W.shape == (6, 4, 1, 1)
    assert link.dw_bn.avg_mean.shape == (4,) and link.pw_bn.avg_mean.shape == (6,)
    assert link(numpy.ones((2, 4, 5, 5), numpy.float32)).shape == (2, 6, 5, 5)


def test_initial_biases_are_used():
    link = SeparableConv2DBNActiv(2, 3, 3, dw_initial_bias=initializers.Constant(0.5),
                                  pw_initial_bias=initializers.Constant(-1.0))
    numpy.testing.assert_array_equal(link.depthwise.b.array, [0.5, 0.5])
    numpy.testing.assert_array_equal(link.pointwise.b.array, [-1.0, -1.0, -1.0])


def test_in_channels_cannot_be_deferred():
    with pytest.raises(TypeError, match="SeparableConv2DBNActiv: in_channels must be an int"):
        SeparableConv2DBNActiv(None, 6, 3)
