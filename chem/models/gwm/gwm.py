"""GWM: the Graph Warp Module, a super node exchanging messages with every node (Ishiguro et al., 2019)."""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.chem.links.readout._mask import exclude_padding
from kusari.link import Chain, ChainList
from kusari.links import GRU, Linear


def _dropout(x, ratio: float):
    """Dropout when ratio > 0 (a negative ratio turns it off, as in Chainer Chemistry)."""
    return F.dropout(x, ratio=ratio) if ratio > 0.0 else x


class WarpGateUnit(Chain):
    """Gated mix ``(1 - z) * h + z * g`` with ``z = activation(H(h) + G(g))``.

    Parameters
    ----------
    output_type : {'graph', 'super'}
        'graph': h, g are node features (minibatch, node, hidden_dim), H and G GraphLinear;
        'super': super-node features (minibatch, hidden_dim), H and G Linear.
    hidden_dim : int
    dropout_ratio : float
        Dropout on the gate logits (training only; skipped when <= 0).
    activation : callable
    """

    def __init__(self, output_type: str = "graph", hidden_dim: int = 16,
                 dropout_ratio: float = -1, activation: Callable = F.sigmoid):
        super().__init__()
        linears = {"graph": GraphLinear, "super": Linear}
        if output_type not in linears:
            raise ValueError(f"WarpGateUnit: output_type must be 'graph' or 'super', "
                             f"got {output_type!r}")
        with self.init_scope():
            self.H = linears[output_type](in_size=hidden_dim, out_size=hidden_dim)
            self.G = linears[output_type](in_size=hidden_dim, out_size=hidden_dim)
        self.hidden_dim = hidden_dim
        self.dropout_ratio = dropout_ratio
        self.output_type = output_type
        self.activation = activation

    def forward(self, h, g):
        """h, g: (minibatch, [node,] hidden_dim) -> the gated mix, same shape."""
        z = self.activation(_dropout(self.H(h) + self.G(g), self.dropout_ratio))
        return (1 - z) * h + z * g


class SuperNodeTransmitterUnit(Chain):
    """Message from the super node to every node: ``tanh(F_super(g))`` broadcast over the nodes.

    Parameters
    ----------
    hidden_dim_super : int
    hidden_dim : int
    dropout_ratio : float
        Kept for the signature (unused, as upstream).
    """

    def __init__(self, hidden_dim_super: int = 16, hidden_dim: int = 16,
                 dropout_ratio: float = -1):
        super().__init__()
        with self.init_scope():
            self.F_super = Linear(in_size=hidden_dim_super, out_size=hidden_dim)
        self.hidden_dim = hidden_dim
        self.hidden_dim_super = hidden_dim_super
        self.dropout_ratio = dropout_ratio

    def forward(self, g, n_nodes: int):
        """g: (minibatch, hidden_dim_super) -> (minibatch, n_nodes, hidden_dim)."""
        g_trans = F.tanh(self.F_super(g))
        return F.broadcast_to(F.expand_dims(g_trans, 1), (len(g), n_nodes, self.hidden_dim))


class GraphTransmitterUnit(Chain):
    """Message from the nodes to the super node: multi-head attention of g over the nodes.

    Head k weighs node i by ``softmax_i(g . B_k h_i)`` (over all N nodes, padding included, as
    upstream), sums ``V_k h_i``, and ``W_super`` compresses the heads.

    Parameters
    ----------
    hidden_dim_super : int
    hidden_dim : int
    n_heads : int
    dropout_ratio : float
        Dropout on the attention weights (training only; skipped when <= 0).
    activation : callable
    """

    def __init__(self, hidden_dim_super: int = 16, hidden_dim: int = 16, n_heads: int = 8,
                 dropout_ratio: float = -1, activation: Callable = F.tanh):
        super().__init__()
        with self.init_scope():
            self.V_super = GraphLinear(hidden_dim, hidden_dim * n_heads)
            self.W_super = Linear(hidden_dim * n_heads, hidden_dim_super)
            self.B = GraphLinear(hidden_dim, n_heads * hidden_dim_super)
        self.hidden_dim = hidden_dim
        self.hidden_dim_super = hidden_dim_super
        self.dropout_ratio = dropout_ratio
        self.n_heads = n_heads
        self.activation = activation

    def forward(self, h, g, step: int = 0, is_real_node=None):
        """Compute the message to the super node.

        Parameters
        ----------
        h : Variable, shape (minibatch, node, hidden_dim)
        g : Variable, shape (minibatch, hidden_dim_super)
        step : int
            Unused (kept for the signature).
        is_real_node : array or None, shape (minibatch, node)
            Padding nodes (0) get no attention; None attends to every node.

        Returns
        -------
        Variable, shape (minibatch, hidden_dim_super)
        """
        mb, node, ch = h.shape
        n_heads, d_super = self.n_heads, self.hidden_dim_super
        values = F.transpose(F.reshape(self.V_super(h), (mb, node, n_heads, ch)), (0, 2, 1, 3))
        keys = F.transpose(F.reshape(self.B(h), (mb, node, n_heads, d_super)), (0, 2, 1, 3))
        query = F.broadcast_to(F.reshape(g, (mb, 1, 1, d_super)), (mb, n_heads, 1, d_super))
        # (mb, head, 1, node), normalized over the nodes
        logits = F.matmul(query, keys, transb=True)
        attention = F.softmax(exclude_padding(logits, is_real_node, node_axis=3), axis=3)
        attention = _dropout(attention, self.dropout_ratio)
        summed = F.reshape(F.matmul(attention, values), (mb, n_heads * ch))
        return self.activation(self.W_super(summed))


class GWM(Chain):
    """Graph Warp Module: one super node per graph, updated alongside a GNN's layers.

    Parameters
    ----------
    hidden_dim : int
        Node feature size.
    hidden_dim_super : int
        Super-node feature size.
    n_layers : int
        Number of GNN layers it accompanies.
    n_heads : int
        Attention heads of the node-to-super transmission.
    dropout_ratio : float
        Negative: no dropout.
    tying_flag : bool
        One set of units shared by all layers.
    activation : callable
        Non-linearity of the super node's own update.
    wgu_activation : callable
        Gate activation of the warp gates.
    gtu_activation : callable
        Activation of the node-to-super message.
    """

    def __init__(self, hidden_dim: int = 16, hidden_dim_super: int = 16, n_layers: int = 4,
                 n_heads: int = 8, dropout_ratio: float = -1, tying_flag: bool = False,
                 activation: Callable = F.relu, wgu_activation: Callable = F.sigmoid,
                 gtu_activation: Callable = F.tanh):
        super().__init__()
        n_use_layers = 1 if tying_flag else n_layers
        with self.init_scope():
            self.update_super = ChainList(*[
                Linear(in_size=hidden_dim_super, out_size=hidden_dim_super)
                for _ in range(n_use_layers)])
            self.super_transmitter = ChainList(*[
                SuperNodeTransmitterUnit(hidden_dim=hidden_dim, hidden_dim_super=hidden_dim_super,
                                         dropout_ratio=dropout_ratio)
                for _ in range(n_use_layers)])
            self.graph_transmitter = ChainList(*[
                GraphTransmitterUnit(hidden_dim=hidden_dim, hidden_dim_super=hidden_dim_super,
                                     n_heads=n_heads, dropout_ratio=dropout_ratio,
                                     activation=gtu_activation)
                for _ in range(n_use_layers)])
            self.wgu_local = ChainList(*[
                WarpGateUnit(output_type="graph", hidden_dim=hidden_dim,
                             dropout_ratio=dropout_ratio, activation=wgu_activation)
                for _ in range(n_use_layers)])
            self.wgu_super = ChainList(*[
                WarpGateUnit(output_type="super", hidden_dim=hidden_dim_super,
                             dropout_ratio=dropout_ratio, activation=wgu_activation)
                for _ in range(n_use_layers)])
            # recurrent across the layers, whatever tying_flag says
            self.GRU_local = GRU(in_size=hidden_dim, out_size=hidden_dim)
            self.GRU_super = GRU(in_size=hidden_dim_super, out_size=hidden_dim_super)
        self.hidden_dim = hidden_dim
        self.hidden_dim_super = hidden_dim_super
        self.n_layers = n_layers
        self.n_heads = n_heads
        self.dropout_ratio = dropout_ratio
        self.tying_flag = tying_flag
        self.activation = activation
        self.wgu_activation = wgu_activation

    def forward(self, h, h_new, g, step: int = 0, is_real_node=None):
        """Exchange messages between the nodes and the super node after one GNN layer.

        Call ``reset_state`` before each new batch of graphs.

        Parameters
        ----------
        h : Variable, shape (minibatch, node, hidden_dim)
            Node features before the GNN layer.
        h_new : Variable, shape (minibatch, node, hidden_dim)
            Node features after it.
        g : Variable, shape (minibatch, hidden_dim_super)
            Super-node features.
        step : int
            Index of the units to use.
        is_real_node : array or None, shape (minibatch, node)
            1 for real nodes, 0 for padding (which the super node does not read).

        Returns
        -------
        (Variable (minibatch, node, hidden_dim), Variable (minibatch, hidden_dim_super))
        """
        mb, n_nodes, _ = h.shape
        g_new = self.activation(self.update_super[step](g))
        h_trans = self.graph_transmitter[step](h, g, is_real_node=is_real_node)
        g_trans = self.super_transmitter[step](g, n_nodes)
        merged_h = self.wgu_local[step](h_new, g_trans)
        merged_g = self.wgu_super[step](h_trans, g_new)
        out_h = self.GRU_local(F.reshape(merged_h, (mb * n_nodes, self.hidden_dim)))
        return F.reshape(out_h, (mb, n_nodes, self.hidden_dim)), self.GRU_super(merged_g)

    def reset_state(self) -> None:
        """Forget the GRU states."""
        self.GRU_local.reset_state()
        self.GRU_super.reset_state()
