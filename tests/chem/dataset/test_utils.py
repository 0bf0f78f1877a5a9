import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset.utils import GaussianDistance  # noqa: E402


def test_default_centers_and_expansion():
    gd = GaussianDistance()
    numpy.testing.assert_allclose(gd.centers[[0, 1, -1]], [0, 4 / 19, 4])
    out = gd.expand(1.0)
    assert out.shape == (20,) and out.dtype == numpy.float32
    # exp(-(1 - 0)^2 / 0.5^2) = exp(-4); the center nearest to 1.0 is 4/19 * 5 = 1.0526
    numpy.testing.assert_allclose(out[0], numpy.exp(-4.0), rtol=1e-6)
    assert out.argmax() == 5


def test_expand_from_distances_keeps_shape():
    gd = GaussianDistance(centers=numpy.array([0.0, 1.0]), width=1.0)
    out = gd.expand_from_distances(numpy.array([[0.0, 1.0, 2.0]], dtype=numpy.float32))
    assert out.shape == (1, 3, 2) and out.dtype == numpy.float32
    numpy.testing.assert_allclose(out[0], numpy.exp(-numpy.array([[0, 1], [1, 0], [4, 1]])), rtol=1e-6)
