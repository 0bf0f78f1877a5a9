"""Conv2DActiv against ChainerCV's fixtures, and its argument forms."""
import numpy
import pytest

import kusari
import kusari.functions as F
import vision_classification_parity as parity
from kusari.vision.links import Conv2DActiv


@pytest.mark.parametrize("case", parity.connection_cases("Conv2DActiv"))
def test_matches_chainercv(case, tmp_path):
    parity.check_connection_case(Conv2DActiv, case, tmp_path)


def test_in_channels_deferred_in_both_forms():
    x = numpy.ones((1, 3, 5, 5), numpy.float32)
    for link in (Conv2DActiv(4, 3), Conv2DActiv(None, 4, 3)):
        assert link.conv.W.array is None
        assert link(x).shape == (1, 4, 3, 3)
        assert link.conv.W.shape == (4, 3, 3, 3)


def test_activation_is_applied_after_the_convolution():
    numpy.random.seed(0)
    link = Conv2DActiv(2, 3, 3, pad=1, activ=F.sigmoid)
    x = numpy.random.standard_normal((2, 2, 4, 4)).astype(numpy.float32)
    plain = F.convolution_2d(x, link.conv.W, link.conv.b, pad=1)
    numpy.testing.assert_allclose(link(x).array, F.sigmoid(plain).array, rtol=1e-6)
    identity = Conv2DActiv(2, 3, 3, activ=None, nobias=True)
    assert identity.conv.b is None
    with kusari.no_backprop_mode():
        numpy.testing.assert_allclose(identity(x).array,
                                      F.convolution_2d(x, identity.conv.W).array, rtol=1e-6)
