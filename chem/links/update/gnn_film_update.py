"""GNNFiLMUpdate: messages modulated feature-wise by their target node (Brockschmidt, GNN-FiLM, 2019)."""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.link import Chain
from kusari.links import LayerNormalization


class GNNFiLMUpdate(Chain):
    """``LayerNorm(sum_e sum_j adj[e, i, j] * act(gamma_e(h_i) * W_e h_j + beta_e(h_i)))``.

    Parameters
    ----------
    hidden_channels : int
        Node feature size (input and output).
    n_edge_types : int
    activation : callable
    """

    def __init__(self, hidden_channels: int = 16, n_edge_types: int = 5,
                 activation: Callable = F.relu):
        super().__init__()
        with self.init_scope():
            self.W_linear = GraphLinear(in_size=None, out_size=n_edge_types * hidden_channels,
                                        nobias=True)
            self.W_g = GraphLinear(in_size=None, out_size=n_edge_types * hidden_channels * 2,
                                   nobias=True)
            self.norm_layer = LayerNormalization()
        self.n_edge_types = n_edge_types
        self.activation = activation

    def forward(self, h, adj):
        """Update the node features.

        Parameters
        ----------
        h : Variable, shape (minibatch, node, hidden_channels)
        adj : array or Variable, shape (minibatch, n_edge_types, node, node)
            GNNFiLMPreprocessor's adjacency (self-connections as the last edge type).

        Returns
        -------
        Variable, shape (minibatch, node, hidden_channels)
        """
        mb, node, ch = h.shape
        n_edge = self.n_edge_types
        if adj.shape != (mb, n_edge, node, node):
            raise ValueError(f"GNNFiLMUpdate: adj must have shape (minibatch, n_edge_types, node, "
                             f"node) = {(mb, n_edge, node, node)}, got {adj.shape} "
                             f"(h.shape={h.shape})")
        # both linear outputs are laid out (ch, edge_type) per node, as in Chainer Chemistry
        messages = F.reshape(self.W_linear(h), (mb, node, ch, n_edge))
        messages = F.transpose(messages, (0, 3, 1, 2))  # (mb, edge_type, node, ch)
        film = F.transpose(F.reshape(self.W_g(h), (mb, node, 2 * ch, n_edge)), (0, 3, 1, 2))
        gamma, beta = film[:, :, :, :ch], film[:, :, :, ch:]
        pair_shape = (mb, n_edge, node, node, ch)
        # (mb, edge_type, target i, source j, ch)
        modulated = (F.broadcast_to(F.expand_dims(gamma, 3), pair_shape)
                     * F.broadcast_to(F.expand_dims(messages, 2), pair_shape)
                     + F.broadcast_to(F.expand_dims(beta, 3), pair_shape))
        modulated = self.activation(modulated)
        weighted = F.broadcast_to(F.expand_dims(adj, 4), pair_shape) * modulated
        m = F.sum(weighted, axis=(1, 3))
        m = self.norm_layer(F.reshape(m, (mb * node, ch)))
        return F.reshape(m, (mb, node, ch))
