import numpy
import pytest
from kusari.chem.links import GraphBatchNormalization


def test_statistics_over_minibatch_and_nodes():
    x = numpy.random.RandomState(0).randn(3, 4, 2).astype(numpy.float32) * 3 + 1
    y = GraphBatchNormalization(2)(x).array
    assert y.shape == x.shape and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.reshape(-1, 2).mean(axis=0), 0, atol=1e-5)
    numpy.testing.assert_allclose(y.reshape(-1, 2).std(axis=0), 1, rtol=1e-3)


def test_rejects_non_3d_input():
    with pytest.raises(ValueError, match="GraphBatchNormalization"):
        GraphBatchNormalization(2)(numpy.zeros((4, 2), numpy.float32))
