"""GNNFiLMUpdate against a NumPy reference of the FiLM messages (before the layer normalization)."""
import numpy
import pytest
from kusari.chem.links import GNNFiLMUpdate

RNG = numpy.random.RandomState(0)
MB, N, CH, E = 2, 4, 3, 5
H = RNG.randn(MB, N, CH).astype(numpy.float32)
ADJ = (RNG.rand(MB, E, N, N) > 0.6).astype(numpy.float32)


def test_matches_reference():
    link = GNNFiLMUpdate(hidden_channels=CH, n_edge_types=E)
    y = link(H, ADJ)
    assert y.dtype == numpy.float32 and y.shape == (MB, N, CH)
    w = (H @ link.W_linear.W.array.T).reshape(MB, N, CH, E)
    g = (H @ link.W_g.W.array.T).reshape(MB, N, 2 * CH, E)
    m = numpy.zeros((MB, N, CH))
    for e in range(E):
        gamma, beta = g[:, :, :CH, e], g[:, :, CH:, e]
        pair = numpy.maximum(gamma[:, :, None] * w[:, None, :, :, e] + beta[:, :, None], 0)
        m += numpy.einsum("bij,bijc->bic", ADJ[:, e], pair)
    # norm_layer starts as gamma = 1, beta = 0
    m = (m - m.mean(axis=2, keepdims=True)) / numpy.sqrt(m.var(axis=2, keepdims=True) + 1e-6)
    numpy.testing.assert_allclose(y.array, m, rtol=1e-4, atol=1e-4)


def test_wrong_adjacency_names_the_link():
    with pytest.raises(ValueError, match=r"GNNFiLMUpdate: adj must have shape .*\(2, 5, 4, 4\)"):
        GNNFiLMUpdate(hidden_channels=CH, n_edge_types=E)(H, ADJ[:, :4])
