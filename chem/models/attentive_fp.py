"""AttentiveFP: graph attention on atoms and a molecule-level attentive readout (Xiong et al., J. Med.
Chem. 63, 8749 (2020))."""
from kusari import functions as F
from kusari.chem.models._graph import check_pair_inputs, molecule_graph, segment_softmax, segment_sum
from kusari.link import Chain, ChainList
from kusari.links import Linear, StatelessGRU

# the slope of the paper's leaky ReLUs (torch's default, which its authors' code uses)
NEGATIVE_SLOPE = 0.01


class _Attention(Chain):
    """Attention of a centre over its candidates: ``a = softmax_j leaky_relu(w_c . c_i + w_n . n_j)``
    and the context ``elu(sum_j a_ij value(n_j))``."""

    def __init__(self, hidden: int):
        super().__init__()
        with self.init_scope():
            self.center = Linear(hidden, 1, nobias=True)
            self.neighbor = Linear(hidden, 1)
            self.value = Linear(hidden, hidden)

    def forward(self, centers, neighbors, target, n_targets: int, dropout_ratio: float):
        """centers (n, hidden) and neighbors (n, hidden) per candidate pair; target (n,) the centre
        each pair belongs to -> contexts (n_targets, hidden)."""
        score = F.leaky_relu(self.center(centers) + self.neighbor(neighbors), NEGATIVE_SLOPE)
        alpha = segment_softmax(F.reshape(score, (-1,)), target, n_targets)
        if dropout_ratio > 0:
            alpha = F.dropout(alpha, ratio=dropout_ratio)
        value = self.value(neighbors)
        weighted = F.broadcast_to(F.expand_dims(alpha, 1), value.shape) * value
        return F.elu(segment_sum(weighted, target, n_targets))


class AttentiveFP(Chain):
    """AttentiveFP on ChempropPreprocessor's atom and bond features.

    Atoms are embedded (``leaky_relu(embed(x))``); the first layer attends over each atom's
    neighbours through messages that read the bond (``leaky_relu(edge([h_u, e_uv]))``), the next
    ``n_update_layers - 1`` over the neighbours' states; each layer's context updates the atom by a
    GRU. A virtual node, started as the sum of its molecule's atoms, attends over them for
    ``n_timesteps`` GRU steps, and ``l_out`` maps it to ``out_dim``.

    Parameters
    ----------
    out_dim : int
    hidden_channels : int
    n_update_layers : int
        Atom attention layers (the paper's "radius"), >= 1.
    n_timesteps : int
        Molecule attention steps ("T"), >= 1.
    dropout_ratio : float
        On the attention weights and before each GRU and ``l_out``.
    """

    def __init__(self, out_dim: int, hidden_channels: int = 200, n_update_layers: int = 2,
                 n_timesteps: int = 2, dropout_ratio: float = 0.0):
        super().__init__()
        if n_update_layers < 1 or n_timesteps < 1:
            raise ValueError(f"AttentiveFP: n_update_layers and n_timesteps must be >= 1, got "
                             f"{n_update_layers} and {n_timesteps}")
        h = hidden_channels
        with self.init_scope():
            self.embed = Linear(None, h)
            self.edge = Linear(None, h)
            self.atom_attention = ChainList(*[_Attention(h) for _ in range(n_update_layers)])
            self.atom_project = ChainList(*[Linear(h, h, nobias=True) for _ in range(n_update_layers - 1)])
            self.atom_gru = ChainList(*[StatelessGRU(h, h) for _ in range(n_update_layers)])
            self.mol_attention = _Attention(h)
            self.mol_project = Linear(h, h, nobias=True)
            self.mol_gru = StatelessGRU(h, h)
            self.l_out = Linear(h, out_dim)
        self.hidden_channels = h
        self.n_update_layers = n_update_layers
        self.n_timesteps = n_timesteps
        self.dropout_ratio = dropout_ratio

    def _dropout(self, h):
        return F.dropout(h, ratio=self.dropout_ratio) if self.dropout_ratio > 0 else h

    def forward(self, atom_features, bond_features, is_real_node=None):
        """Molecule vectors.

        Parameters
        ----------
        atom_features : array or Variable, shape (minibatch, N, atom_fdim) float
        bond_features : array or Variable, shape (minibatch, bond_fdim, N, N) float
        is_real_node : array or None, shape (minibatch, N)
            1 for real atoms; None reads padding from the all-zero atom rows.

        Returns
        -------
        Variable, shape (minibatch, out_dim)
        """
        x, e = atom_features, bond_features
        check_pair_inputs("AttentiveFP", x, e)
        mb, n, fdim = x.shape
        atom_rows, molecule, src, dst, (b, i, j), _ = molecule_graph("AttentiveFP", x, e, is_real_node)
        n_atoms = len(atom_rows)
        h = F.leaky_relu(self.embed(F.get_item(F.reshape(x, (mb * n, fdim)), atom_rows)), NEGATIVE_SLOPE)
        edges = F.get_item(F.transpose(e, (0, 2, 3, 1)), (b, i, j))
        for layer in range(self.n_update_layers):
            if layer == 0:   # messages u -> v that read the bond
                neighbors = F.leaky_relu(self.edge(F.concat((F.get_item(h, src), edges), axis=1)),
                                         NEGATIVE_SLOPE)
                centers = F.get_item(h, dst)
            else:
                projected = self.atom_project[layer - 1](h)
                neighbors, centers = F.get_item(projected, src), F.get_item(projected, dst)
            context = self.atom_attention[layer](centers, neighbors, dst, n_atoms, self.dropout_ratio)
            h = F.relu(self.atom_gru[layer](h, self._dropout(context)))
        # the virtual node of each molecule attends over its atoms
        s = F.relu(segment_sum(h, molecule, mb))
        projected_atoms = self.mol_project(h)
        for _ in range(self.n_timesteps):
            centers = F.get_item(self.mol_project(s), molecule)
            context = self.mol_attention(centers, projected_atoms, molecule, mb, self.dropout_ratio)
            s = F.relu(self.mol_gru(s, self._dropout(context)))
        return self.l_out(self._dropout(s))
