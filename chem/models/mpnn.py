"""MPNN: Message Passing Neural Network (Gilmer et al., 2017)."""

from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.connection.embed_atom_id import EmbedAtomID
from kusari.chem.links.readout.ggnn_readout import GGNNReadout
from kusari.chem.links.readout.mpnn_readout import MPNNReadout
from kusari.chem.links.update.ggnn_update import GGNNUpdate
from kusari.chem.links.update.mpnn_update import MPNNUpdate
from kusari.chem.models._inputs import check_graph_inputs, is_atom_ids, real_atoms
from kusari.link import Chain, ChainList, Link

_MESSAGE_FUNCS = ("edgenet", "ggnn")
_READOUT_FUNCS = ("set2set", "ggnn")


class MPNN(Chain):
    """Message passing network with an edge-network or GGNN message and a Set2Set or GGNN readout.

    Parameters
    ----------
    out_dim : int
    hidden_channels : int
    n_update_layers : int
    n_atom_types : int
    concat_hidden : bool
        Read out after every step and concatenate.
    weight_tying : bool
        One update layer shared by all steps.
    n_edge_types : int
    nn : Link or None
        EdgeNet's edge network (shared by every update layer when given).
    message_func : {'edgenet', 'ggnn'}
    readout_func : {'set2set', 'ggnn'}
    pairing : {'atom_pair', 'bonds', 'chainer_chemistry'}
        How the edge network reads an atom pair's edge vector: the pair's own, every pair sending
        a message (default); the pair's own, bonded pairs only (Gilmer et al.'s MPNN, with
        ``readout_func='set2set'``); or Chainer Chemistry's reshape, which mixes unrelated pairs
        and depends on the padded size (for parity with its saved models; see
        :class:`kusari.chem.links.update.mpnn_update.EdgeNet`).
    """

    def __init__(self, out_dim: int, hidden_channels: int = 16, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, concat_hidden: bool = False,
                 weight_tying: bool = True, n_edge_types: int = 4, nn: Link | None = None,
                 message_func: str = "edgenet", readout_func: str = "set2set",
                 pairing: str = "atom_pair"):
        super().__init__()
        if message_func not in _MESSAGE_FUNCS:
            raise ValueError(f"MPNN: message_func must be one of {_MESSAGE_FUNCS}, "
                             f"got {message_func!r}")
        if readout_func not in _READOUT_FUNCS:
            raise ValueError(f"MPNN: readout_func must be one of {_READOUT_FUNCS}, "
                             f"got {readout_func!r}")
        n_readout_layer = n_update_layers if concat_hidden else 1
        n_message_layer = 1 if weight_tying else n_update_layers
        with self.init_scope():
            self.embed = EmbedAtomID(out_size=hidden_channels, in_size=n_atom_types)
            if message_func == "ggnn":
                updates = [GGNNUpdate(hidden_channels=hidden_channels, n_edge_types=n_edge_types)
                           for _ in range(n_message_layer)]
            else:
                updates = [MPNNUpdate(hidden_channels=hidden_channels, nn=nn, pairing=pairing)
                           for _ in range(n_message_layer)]
            self.update_layers = ChainList(*updates)
            if readout_func == "ggnn":
                readouts = [GGNNReadout(out_dim=out_dim, in_channels=hidden_channels * 2)
                            for _ in range(n_readout_layer)]
            else:
                readouts = [MPNNReadout(out_dim=out_dim, in_channels=hidden_channels, n_layers=1)
                            for _ in range(n_readout_layer)]
            self.readout_layers = ChainList(*readouts)
        self.out_dim = out_dim
        self.hidden_channels = hidden_channels
        self.n_update_layers = n_update_layers
        self.n_edge_types = n_edge_types
        self.concat_hidden = concat_hidden
        self.weight_tying = weight_tying
        self.message_func = message_func
        self.readout_func = readout_func
        self.pairing = pairing

    def forward(self, atom_array, adj, is_real_node=None):
        """Compute the graph vectors.

        Parameters
        ----------
        atom_array : array, shape (minibatch, N) int32, or (minibatch, N, hidden_channels) float
        adj : array or Variable, shape (minibatch, n_edge_types, N, N)
            Edge-typed adjacency (GGNNPreprocessor's).
        is_real_node : array or None, shape (minibatch, N)
            1 for real atoms, 0 for padding (derived from ``concat_mols``' -1 IDs when None):
            padding atoms send no message and are not read out.

        Returns
        -------
        Variable, shape (minibatch, out_dim) (``n_update_layers * out_dim`` with concat_hidden)
        """
        check_graph_inputs("MPNN", atom_array, adj, self.n_edge_types)
        self.reset_state()
        atom_array, is_real_node = real_atoms("MPNN", atom_array, is_real_node)
        h = self.embed(atom_array) if is_atom_ids("MPNN", atom_array) else atom_array
        # the GGNN readout also reads the initial features h0
        h0 = h if self.readout_func == "ggnn" else None
        g_list = []
        for step in range(self.n_update_layers):
            layer = self.update_layers[0 if self.weight_tying else step]
            # GGNN messages cross bonds only, so padding atoms send nothing to real ones
            h = layer(h, adj) if self.message_func == "ggnn" else layer(h, adj, is_real_node)
            if self.concat_hidden:
                g_list.append(self._readout(self.readout_layers[step], h, h0, is_real_node))
        if self.concat_hidden:
            return F.concat(g_list, axis=1)
        return self._readout(self.readout_layers[0], h, h0, is_real_node)

    @staticmethod
    def _readout(readout, h, h0, is_real_node):
        if h0 is None:
            return readout(h, is_real_node=is_real_node)
        return readout(h, h0=h0, is_real_node=is_real_node)

    def reset_state(self) -> None:
        """Forget the GRU states of the update layers."""
        for update_layer in self.update_layers:
            update_layer.reset_state()
