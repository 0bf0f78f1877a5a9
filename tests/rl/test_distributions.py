import numpy
import pytest

import kusari
import kusari.functions as F
from kusari.rl import distributions


def test_distribution_refuses_mixed_dtypes():
    with pytest.raises(TypeError, match="SquashedDiagonalGaussian"):
        distributions.SquashedDiagonalGaussian(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3)))


def test_sample_carries_no_gradient_and_rsample_does():
    loc = kusari.Parameter(numpy.zeros((2, 3), numpy.float32))
    log_scale = kusari.Parameter(numpy.zeros((2, 3), numpy.float32))
    d = distributions.SquashedDiagonalGaussian(loc, log_scale)
    drawn = d.sample()
    assert not drawn.requires_grad and drawn.creator is None
    # log_prob of a sample: gradients reach the parameters through the density only
    F.sum(d.log_prob(drawn)).backward()
    pre = numpy.arctanh(drawn.array.astype(numpy.float64))
    numpy.testing.assert_allclose(loc.grad, pre, rtol=1e-4, atol=1e-5)   # d/dloc = z / scale, z = pre
    d = distributions.SquashedDiagonalGaussian(loc, log_scale)
    assert d.rsample((5,)).shape == (5, 2, 3) and d.rsample(5).creator is not None
    with pytest.raises(ValueError, match="SquashedDiagonalGaussian.sample: sample_shape"):
        d.rsample((-1,))
