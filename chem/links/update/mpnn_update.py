"""MPNNUpdate and its edge network EdgeNet (Gilmer et al., 2017)."""

from kusari import functions as F
from kusari.chem.links.readout._mask import mask_padding_nodes
from kusari.link import Chain, Link
from kusari.links import GRU

#: EdgeNet's readings of an atom pair's edge vector from the adjacency
PAIRINGS = ("atom_pair", "bonds", "chainer_chemistry")


class EdgeNet(Chain):
    """Edge network message: each edge vector is mapped by ``nn`` to a (ch, ch) matrix.

    The message to node i is ``sum_j A_ij h_j`` with ``A_ij = nn(e_ij)`` reshaped to (ch, ch):
    the incoming message takes the edge vectors ``e_ij`` from adj as given, the outgoing one from
    its transpose. With ``pairing='atom_pair'`` (the default) ``e_ij = adj[:, i, j]``, the pair's
    own bond-type vector, and every atom pair exchanges a message (``nn`` of a zero vector for
    unbonded pairs). ``pairing='bonds'`` is Gilmer et al.'s edge network: the same ``e_ij``, and
    only bonded pairs (a nonzero ``e_ij``) exchange messages. With
    ``pairing='chainer_chemistry'``, as in Chainer Chemistry, ``e_ij`` is row ``i * node + j`` of
    the graph's adj reshaped to (node * node, n_edge_types) (a reshape, not a transpose to
    edge-type-last, so a row mixes edge types of unrelated pairs and changes with the padded
    size). ``nn_layer_in`` and ``nn_layer_out`` are the same link (shared
    weights, saved under both names).

    When ``nn`` is a :class:`kusari.chem.models.MLP` (exactly that class, not a subclass, as the
    default is), its last layer ``l_out`` is linear, so with ``z_ij = nn.hidden(e_ij)`` (k wide)
    the message is reassociated: ``sum_j A_ij h_j = W' (sum_j z_ij (x) h_j) + B (sum_j h_j)`` with
    ``l_out``'s W regrouped as W' (ch, k * ch) and its bias as B (ch, ch). This never builds the
    (ch, ch) matrix of each node pair (k = 16 against ch * ch), and gives the same result and
    gradients up to rounding. Any other ``nn`` gets the general path that builds the matrices.

    Parameters
    ----------
    out_channels : int
        Must equal the node feature size ch.
    nn : Link or None
        Maps (n, n_edge_types) to (n, out_channels ** 2); None: ``MLP(out_channels ** 2, 16)``.
    pairing : {'atom_pair', 'bonds', 'chainer_chemistry'}
        How ``e_ij`` is read from adj and which pairs exchange messages (see above).
    """

    def __init__(self, out_channels: int, nn: Link | None = None, pairing: str = "atom_pair"):
        super().__init__()
        if pairing not in PAIRINGS:
            raise ValueError(f"EdgeNet: pairing must be one of {PAIRINGS}, got {pairing!r}")
        # models import links, so the MLP model is imported only here
        from kusari.chem.models.mlp import MLP
        if nn is None:
            nn = MLP(out_dim=out_channels ** 2, hidden_dim=16)
        if not isinstance(nn, Link):
            raise TypeError(f"EdgeNet: nn must be a kusari Link, got {type(nn).__name__}")
        with self.init_scope():
            self.nn_layer_in = nn
            self.nn_layer_out = nn
        self.out_channels = out_channels
        self.pairing = pairing
        self._factored = type(nn) is MLP

    def _edge_vectors(self, adj, order):
        """The edge vectors of adj (mb, E, node, node) as (mb * node * node, E) rows ordered
        (b, i, j) (``order='ij'``) or (b, j, i) (``'ji'``)."""
        mb, edge_type, node, _ = adj.shape
        if self.pairing != "chainer_chemistry":
            e = F.transpose(adj, (0, 2, 3, 1) if order == "ij" else (0, 3, 2, 1))
        else:  # Chainer Chemistry's reshape
            e = F.reshape(adj, (mb, node, node, edge_type))
            if order == "ji":
                e = F.transpose(e, (0, 2, 1, 3))
        return F.reshape(e, (mb * node * node, edge_type))

    @staticmethod
    def _bonded(adj):
        """(mb, node, node) 1 where adj (mb, E, node, node) has a nonzero edge vector, else 0."""
        array = adj.array if hasattr(adj, "array") else adj
        return (array != 0).any(axis=1).astype(array.dtype)

    def _edge_matrices(self, nn, adj, mb, node, ch):
        # (mb, E, node, node) -> block matrix (mb, node * ch, node * ch) of the per-edge (ch, ch)
        a = nn(self._edge_vectors(adj, "ij"))
        if self.pairing == "bonds":   # unbonded pairs send nothing
            a = a * F.broadcast_to(self._bonded(adj).reshape(-1, 1), a.shape)
        a = F.transpose(F.reshape(a, (mb, node, node, ch, ch)), (0, 1, 3, 2, 4))
        return F.reshape(a, (mb, node * ch, node * ch))

    def _general_message(self, nn, adj, hv, mb, node, ch):
        return F.reshape(F.matmul(self._edge_matrices(nn, adj, mb, node, ch), hv), (mb, node, ch))

    def _factored_messages(self, h, adj, adj_t):
        # the incoming and outgoing messages sum_j A_ij h_j, each (mb, node, ch)
        mb, node, ch = h.shape
        mlp = self.nn_layer_in
        if mlp.l_out.out_size != ch * ch:
            raise ValueError(f"EdgeNet: nn must output out_channels ** 2 = {ch * ch} values per "
                             f"edge, its l_out has out_size={mlp.l_out.out_size}")
        # edge vectors ordered (b, j, i), so that z is (mb, j, i * k): the sum over j is one matmul
        zs = [mlp.hidden(self._edge_vectors(a, "ji")) for a in (adj, adj_t)]
        k = zs[0].shape[1]
        W = mlp.l_out.W
        if W.array is None:  # l_out is lazy: as its own first call would, size it by z
            W.initialize((ch * ch, k))
        # W'[c, (k, d)] = W[(c, d), k]; B[c, d] = b[(c, d)] gives node i the term B sum_j h_j
        # (sum over the bonded j only with pairing='bonds', whose unbonded z are zeroed)
        w = F.reshape(F.transpose(F.reshape(W, (ch, ch, k)), (0, 2, 1)), (ch, k * ch))
        B = F.reshape(mlp.l_out.b, (ch, ch))
        if self.pairing != "bonds":
            bias = F.broadcast_to(F.expand_dims(F.linear(F.sum(h, axis=1), B), 1), (mb, node, ch))
        messages = []
        for a, z in zip((adj, adj_t), zs):
            if self.pairing == "bonds":
                bonded = self._bonded(a)                                           # (mb, i, j)
                z = z * F.broadcast_to(bonded.transpose(0, 2, 1).reshape(-1, 1), z.shape)
                bias = F.linear(F.matmul(bonded, h), B, n_batch_axes=2)
            zh = F.matmul(F.reshape(z, (mb, node, node * k)), h, transa=True)  # (mb, i * k, d)
            messages.append(F.linear(F.reshape(zh, (mb, node, k * ch)), w, n_batch_axes=2) + bias)
        return messages

    def forward(self, h, adj):
        """Compute the messages.

        Parameters
        ----------
        h : Variable, shape (minibatch, node, ch)
        adj : array or Variable, shape (minibatch, n_edge_types, node, node)

        Returns
        -------
        Variable, shape (minibatch, node, 2 * ch): incoming and outgoing messages
        """
        mb, node, ch = h.shape
        if ch != self.out_channels:
            raise ValueError(f"EdgeNet: h has {ch} channels but out_channels is "
                             f"{self.out_channels}; they must be equal (h.shape={h.shape})")
        if adj.ndim != 4 or adj.shape[0] != mb or adj.shape[2:] != (node, node):
            raise ValueError(f"EdgeNet: adj must have shape (minibatch, n_edge_types, node, node) "
                             f"with minibatch={mb}, node={node}, got {adj.shape}")
        adj_t = F.transpose(adj, (0, 1, 3, 2))
        if self._factored:
            message_in, message_out = self._factored_messages(h, adj, adj_t)
        else:
            hv = F.reshape(h, (mb, node * ch, 1))
            message_in = self._general_message(self.nn_layer_in, adj, hv, mb, node, ch)
            message_out = self._general_message(self.nn_layer_out, adj_t, hv, mb, node, ch)
        return F.concat((message_in, message_out), axis=2)


class MPNNUpdate(Chain):
    """One MPNN step: EdgeNet messages fed to a stateful GRU per node.

    Parameters
    ----------
    in_channels : int or None
        Kept for the signature; the node size must equal ``hidden_channels`` (EdgeNet's rule).
    hidden_channels : int
    out_channels : int or None
        GRU state size (``hidden_channels`` when None).
    nn : Link or None
        EdgeNet's edge network.
    pairing : {'atom_pair', 'bonds', 'chainer_chemistry'}
        EdgeNet's reading of the edge vectors.
    """

    def __init__(self, in_channels: int | None = None, hidden_channels: int = 16,
                 out_channels: int | None = None, nn: Link | None = None,
                 pairing: str = "atom_pair", **kwargs):
        super().__init__()
        if out_channels is None:
            out_channels = hidden_channels
        if in_channels is None:
            in_channels = out_channels
        with self.init_scope():
            self.message_layer = EdgeNet(out_channels=hidden_channels, nn=nn, pairing=pairing)
            self.update_layer = GRU(2 * hidden_channels, out_channels)
        self.in_channels = in_channels
        self.hidden_channels = hidden_channels
        self.out_channels = out_channels
        self.nn = nn

    def forward(self, h, adj, is_real_node=None, **kwargs):
        """h: (minibatch, node, hidden_channels), adj: (minibatch, E, node, node)
        -> (minibatch, node, out_channels); padding nodes (0 in is_real_node, (minibatch, node))
        send no message."""
        mb, node, _ = h.shape
        m = self.message_layer(mask_padding_nodes(h, is_real_node), adj)
        m = F.reshape(m, (mb * node, 2 * self.hidden_channels))
        return F.reshape(self.update_layer(m), (mb, node, self.out_channels))

    def reset_state(self) -> None:
        """Forget the GRU state (call once per new batch of graphs)."""
        self.update_layer.reset_state()
