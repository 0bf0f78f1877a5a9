"""The update links on small random graphs: shapes, float32, and the math of the simple ones."""
import numpy
import pytest
from kusari.chem.links import (
    EdgeNet,
    GGNNUpdate,
    GINUpdate,
    MPNNUpdate,
    NFPUpdate,
    RelGCNUpdate,
    RSGCNUpdate,
    SchNetUpdate,
)

RNG = numpy.random.RandomState(0)
MB, N, CH, E = 2, 4, 3, 4
H = RNG.randn(MB, N, CH).astype(numpy.float32)
ADJ = (RNG.rand(MB, N, N) > 0.5).astype(numpy.float32)
ADJ_E = (RNG.rand(MB, E, N, N) > 0.7).astype(numpy.float32)


def test_rsgcn_update_math():
    link = RSGCNUpdate(CH, 5)
    assert link.graph_linear.b is None
    expected = (ADJ @ H) @ link.graph_linear.W.array.T
    numpy.testing.assert_allclose(link(H, ADJ).array, expected, rtol=1e-5, atol=1e-6)


def test_relgcn_update_math():
    link = RelGCNUpdate(CH, 2, n_edge_types=E)
    m = (H @ link.graph_linear_edge.W.array.T + link.graph_linear_edge.b.array)
    m = m.reshape(MB, N, 2, E).transpose(0, 3, 1, 2)
    expected = H @ link.graph_linear_self.W.array.T + link.graph_linear_self.b.array
    expected = expected + (ADJ_E @ m).sum(axis=1)
    numpy.testing.assert_allclose(link(H, ADJ_E).array, expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="RelGCNUpdate: adj"):
        link(H, ADJ)


def test_gin_update_in_test_mode_math():
    import kusari
    link = GINUpdate(in_channels=CH, hidden_channels=CH, n_layers=1)
    (layer,) = link.graph_mlp.layers
    expected = numpy.maximum((ADJ @ H + H) @ layer.W.array.T + layer.b.array, 0)
    with kusari.using_config("train", False):
        numpy.testing.assert_allclose(link(H, ADJ).array, expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="GINUpdate: adj"):
        link(H, ADJ_E)


def test_nfp_update_picks_weights_by_degree():
    link = NFPUpdate(CH, 2, max_degree=1)
    degree = ADJ.sum(axis=1)
    conds = [numpy.broadcast_to((degree == d)[:, :, None], H.shape) for d in (1, 2)]
    fv = ADJ @ H
    pre = sum(numpy.where(c, fv, 0) @ gl.W.array.T + gl.b.array
              for c, gl in zip(conds, link.graph_linears))
    numpy.testing.assert_allclose(link(H, ADJ, conds).array, 1 / (1 + numpy.exp(-pre)),
                                  rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="NFPUpdate: expected 2 degree conditions"):
        link(H, ADJ, conds[:1])


@pytest.mark.parametrize("make, adj, out_ch", [
    (lambda: GGNNUpdate(hidden_channels=CH, n_edge_types=E), ADJ_E, CH),
    (lambda: MPNNUpdate(hidden_channels=CH), ADJ_E, CH),
    (lambda: SchNetUpdate(hidden_channels=CH, num_rbf=5), ADJ, CH),
])
def test_stateful_and_schnet_updates_shapes(make, adj, out_ch):
    y = make()(H, adj)
    assert y.shape == (MB, N, out_ch) and y.dtype == numpy.float32


def test_edgenet_shares_its_network_and_checks_channels():
    net = EdgeNet(out_channels=CH)
    assert net.nn_layer_in is net.nn_layer_out
    assert net(H, ADJ_E).shape == (MB, N, 2 * CH)
    with pytest.raises(ValueError, match="EdgeNet: h has 3 channels but out_channels is 2"):
        EdgeNet(out_channels=2)(H, ADJ_E)
    with pytest.raises(TypeError, match="EdgeNet: nn"):
        EdgeNet(out_channels=CH, nn=lambda x: x)


def test_ggnn_update_checks_adjacency_layout():
    with pytest.raises(ValueError, match=r"GGNNUpdate: adj .* got \(2, 4, 4\)"):
        GGNNUpdate(hidden_channels=CH, n_edge_types=E)(H, ADJ)
