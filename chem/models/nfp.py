"""NFP: Neural Fingerprint (Duvenaud et al., NIPS 2015)."""
from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.connection.embed_atom_id import EmbedAtomID
from kusari.chem.links.readout.nfp_readout import NFPReadout
from kusari.chem.links.update.nfp_update import NFPUpdate
from kusari.chem.models._inputs import check_graph_inputs, is_atom_ids, real_atoms
from kusari.link import Chain, ChainList
from kusari.variable import Variable


class NFP(Chain):
    """Neural fingerprint: degree-wise updates, a softmax readout after every layer, summed.

    Parameters
    ----------
    out_dim : int
        Fingerprint length.
    hidden_channels : int
    n_update_layers : int
    max_degree : int
        Atoms of degree ``1 .. max_degree + 1`` (self-loop included) get their own weights;
        other atoms (e.g. padding) get none.
    n_atom_types : int
    concat_hidden : bool
        Return the running fingerprints of all layers concatenated.
    """

    def __init__(self, out_dim: int, hidden_channels: int = 16, n_update_layers: int = 4,
                 max_degree: int = 6, n_atom_types: int = MAX_ATOMIC_NUM,
                 concat_hidden: bool = False):
        super().__init__()
        with self.init_scope():
            self.embed = EmbedAtomID(in_size=n_atom_types, out_size=hidden_channels)
            self.layers = ChainList(*[NFPUpdate(hidden_channels, hidden_channels,
                                                max_degree=max_degree)
                                      for _ in range(n_update_layers)])
            self.readout_layers = ChainList(*[NFPReadout(out_dim=out_dim,
                                                         in_channels=hidden_channels)
                                              for _ in range(n_update_layers)])
        self.out_dim = out_dim
        self.hidden_channels = hidden_channels
        self.max_degree = max_degree
        self.n_degree_types = max_degree + 1
        self.n_update_layers = n_update_layers
        self.concat_hidden = concat_hidden

    def forward(self, atom_array, adj, is_real_node=None):
        """Compute the fingerprints.

        Parameters
        ----------
        atom_array : array, shape (minibatch, N) int32, or (minibatch, N, hidden_channels) float
        adj : array or Variable, shape (minibatch, N, N)
            Adjacency with self-loops (NFPPreprocessor's output).
        is_real_node : array or None, shape (minibatch, N)

        Returns
        -------
        Variable, shape (minibatch, out_dim) (``n_update_layers * out_dim`` with concat_hidden)
        """
        check_graph_inputs("NFP", atom_array, adj)
        atom_array, is_real_node = real_atoms("NFP", atom_array, is_real_node)
        h = self.embed(atom_array) if is_atom_ids("NFP", atom_array) else atom_array
        adj_array = adj.array if isinstance(adj, Variable) else adj
        degree = self.xp.sum(adj_array, axis=1)
        deg_conds = [self.xp.broadcast_to((degree == d)[:, :, None], h.shape)
                     for d in range(1, self.n_degree_types + 1)]
        g = 0
        g_list = []
        for update, readout in zip(self.layers, self.readout_layers):
            h = update(h, adj, deg_conds)
            g = g + readout(h, is_real_node)
            g_list.append(g)
        # Chainer Chemistry 0.7.1 concatenates on axis 2, which fails on (minibatch, out_dim)
        return F.concat(g_list, axis=1) if self.concat_hidden else g
