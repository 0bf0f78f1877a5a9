"""SEBlock against ChainerCV's fixtures and a NumPy reference."""
import numpy
import pytest

import vision_classification_parity as parity
from kusari.vision.links import SEBlock


@pytest.mark.parametrize("case", parity.connection_cases("SEBlock"))
def test_matches_chainercv(case, tmp_path):
    parity.check_connection_case(SEBlock, case, tmp_path)


def test_numpy_reference():
    numpy.random.seed(2)
    link = SEBlock(8, ratio=2)
    assert link.down.W.shape == (4, 8) and link.up.W.shape == (8, 4)
    u = numpy.random.standard_normal((3, 8, 4, 5)).astype(numpy.float32)
    z = u.mean(axis=(2, 3))
    hidden = numpy.maximum(z @ link.down.W.array.T + link.down.b.array, 0)
    gate = 1 / (1 + numpy.exp(-(hidden @ link.up.W.array.T + link.up.b.array)))
    y = link(u)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, u * gate[:, :, None, None], rtol=1e-5, atol=1e-6)


def test_needs_four_dimensions():
    with pytest.raises(ValueError, match=r"SEBlock: u must be \(N, C, H, W\), got u.shape=\(3, 8\)"):
        SEBlock(8, ratio=4)(numpy.ones((3, 8), numpy.float32))
    with pytest.raises(ValueError, match="SEBlock: n_channel // ratio must be at least 1, got n_channel=8, "
                                         "ratio=16"):
        SEBlock(8)
