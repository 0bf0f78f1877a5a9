import numpy
import pytest
from kusari.chem.links import GraphLinear


def test_applies_the_same_affine_map_to_every_node():
    rng = numpy.random.RandomState(0)
    x = rng.randn(2, 5, 3).astype(numpy.float32)
    link = GraphLinear(None, 4)
    y = link(x)
    assert y.shape == (2, 5, 4) and y.dtype == numpy.float32
    expected = x @ link.W.array.T + link.b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


def test_rejects_non_3d_input():
    with pytest.raises(ValueError, match=r"GraphLinear: x must be 3-D .* \(4, 3\)"):
        GraphLinear(3, 2)(numpy.zeros((4, 3), numpy.float32))
