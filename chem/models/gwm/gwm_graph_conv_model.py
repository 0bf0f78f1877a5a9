"""GWMGraphConvModel: a graph convolution model assembled from update and readout links, with a GWM.

``GraphConvModelBase`` is the part it shares with the CWLE and GWLE models (Chainer Chemistry keeps
three copies of it): embedding, update layers, optional batch norm, dropout and activation, and the
readout after the last layer or after every layer.
"""
from collections.abc import Callable, Sequence

from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.connection.embed_atom_id import EmbedAtomID
from kusari.chem.links.normalization.graph_batch_normalization import (
    GraphBatchNormalization,
)
from kusari.chem.links.readout.general_readout import GeneralReadout
from kusari.chem.links.update.ggnn_update import GGNNUpdate
from kusari.chem.links.update.gnn_film_update import GNNFiLMUpdate
from kusari.chem.links.update.relgat_update import RelGATUpdate
from kusari.chem.links.update.relgcn_update import RelGCNUpdate
from kusari.chem.models._inputs import check_graph_inputs, is_atom_ids, real_atoms
from kusari.chem.models.gwm.gwm import GWM
from kusari.chem.models.relgcn import rescale_adj
from kusari.link import Chain, ChainList
from kusari.links import Linear
from kusari.variable import Variable

# update links that read an edge-typed adjacency (minibatch, n_edge_types, N, N)
_EDGE_TYPED_UPDATES = (GGNNUpdate, GNNFiLMUpdate, RelGATUpdate, RelGCNUpdate)


def to_array(x):
    """The array of x when x is a Variable, else x itself."""
    return x.array if isinstance(x, Variable) else x


class GraphConvModelBase(Chain):
    """Embedding, ``update_layers``, optional ``bnorms`` and ``readout_layers`` of a unified model.

    Subclasses add their own links and implement ``forward`` with ``embed_atoms`` and
    ``convolve``. Parameters are those of GWMGraphConvModel; ``uniform_channels`` (GWM, CWLE or
    GWLE enabled) demands equal hidden channels and a GeneralReadout whose input size is out_dim.
    """

    def __init__(self, hidden_channels: int | Sequence[int], out_dim: int,
                 update_layer: type, readout_layer: type, n_update_layers: int | None = None,
                 out_channels: Sequence[int] | None = None,
                 n_atom_types: int = MAX_ATOMIC_NUM, n_edge_types: int = 4,
                 dropout_ratio: float = -1.0, concat_hidden: bool = False,
                 sum_hidden: bool = False, weight_tying: bool = False, scale_adj: bool = False,
                 activation: Callable | None = None, use_batchnorm: bool = False,
                 n_activation: int | None = None, update_kwargs: dict | None = None,
                 readout_kwargs: dict | None = None, uniform_channels: bool = True):
        super().__init__()
        name = type(self).__name__
        if isinstance(hidden_channels, int):
            if n_update_layers is None:
                raise ValueError(f"{name}: n_update_layers must be given when hidden_channels "
                                 f"is an int ({hidden_channels})")
            hidden_channels = [hidden_channels] * (n_update_layers + 1)
        elif isinstance(hidden_channels, list):
            hidden_channels = list(hidden_channels)
            n_update_layers = len(hidden_channels) - (1 if out_channels is None else 0)
        else:
            raise TypeError(f"{name}: hidden_channels must be an int or a list of int, "
                            f"got {type(hidden_channels).__name__}")
        if readout_layer is GeneralReadout and hidden_channels[-1] != out_dim:
            # GeneralReadout cannot change the size, so the last layer must give out_dim
            if uniform_channels:
                raise ValueError(f"{name}: with GeneralReadout the hidden channels "
                                 f"{hidden_channels} must equal out_dim={out_dim}")
            hidden_channels[-1] = out_dim
        if ((uniform_channels or concat_hidden or sum_hidden or weight_tying)
                and len(set(hidden_channels)) != 1):
            raise ValueError(f"{name}: hidden_channels must all be equal here, got "
                             f"{hidden_channels}")
        if out_channels is None:
            in_channels_list, out_channels_list = hidden_channels[:-1], hidden_channels[1:]
        else:
            # RelGAT's concat_heads widens the outputs
            in_channels_list, out_channels_list = hidden_channels, list(out_channels)
        if len(out_channels_list) != n_update_layers:
            raise ValueError(f"{name}: out_channels has {len(out_channels_list)} entries for "
                             f"{n_update_layers} update layers")
        n_use_update_layers = 1 if weight_tying else n_update_layers
        n_readout_layers = n_use_update_layers if concat_hidden or sum_hidden else 1
        with self.init_scope():
            self.embed = EmbedAtomID(out_size=hidden_channels[0], in_size=n_atom_types)
            self.update_layers = ChainList(*[
                update_layer(in_channels=in_channels_list[i], out_channels=out_channels_list[i],
                             n_edge_types=n_edge_types, **(update_kwargs or {}))
                for i in range(n_use_update_layers)])
            self.readout_layers = ChainList(*[
                readout_layer(out_dim=out_dim, in_channels=None, **(readout_kwargs or {}))
                for _ in range(n_readout_layers)])
            if use_batchnorm:
                self.bnorms = ChainList(*[GraphBatchNormalization(out_channels_list[i])
                                          for i in range(n_use_update_layers)])
        self.hidden_channels = hidden_channels
        self.readout_layer = readout_layer
        self.update_layer = update_layer
        self.weight_tying = weight_tying
        self.concat_hidden = concat_hidden
        self.sum_hidden = sum_hidden
        self.scale_adj = scale_adj
        self.activation = activation
        self.dropout_ratio = dropout_ratio
        self.use_batchnorm = use_batchnorm
        self.n_activation = n_use_update_layers if n_activation is None else n_activation
        self.n_update_layers = n_update_layers
        self.n_edge_types = n_edge_types

    def embed_atoms(self, atom_array, adj, is_real_node=None):
        """Check the inputs' layout, reset the states, embed int32 atom IDs (``concat_mols``' -1
        padding as ID 0, marked in the mask).

        Parameters
        ----------
        atom_array : array, shape (minibatch, N) int32, or (minibatch, N, ch) float
        adj : array or Variable, shape (minibatch, n_edge_types, N, N) for edge-typed update
            layers (GGNN, RelGCN, RelGAT, GNNFiLM), else (minibatch, N, N)
        is_real_node : array or None, shape (minibatch, N)

        Returns
        -------
        (Variable (minibatch, N, hidden_channels[0]), is_real_node)
            The mask as given, or derived from the -1 IDs (None without padding).
        """
        name = type(self).__name__
        edge_typed = (isinstance(self.update_layer, type)
                      and issubclass(self.update_layer, _EDGE_TYPED_UPDATES))
        check_graph_inputs(name, atom_array, adj, self.n_edge_types if edge_typed else None)
        self.reset_state()
        atom_array, is_real_node = real_atoms(name, atom_array, is_real_node)
        return (self.embed(atom_array) if is_atom_ids(name, atom_array) else atom_array), is_real_node

    def convolve(self, h, h0, adj, additional_kwargs: dict, is_real_node=None,
                 warp: Callable | None = None):
        """Run the update layers and read out.

        Parameters
        ----------
        h : Variable, shape (minibatch, N, ch)
            Node features entering the first layer.
        h0 : Variable, shape (minibatch, N, ch)
            The embedded atoms (for readouts that use them).
        adj : array or Variable
        additional_kwargs : dict
            Extra keyword arguments of the update and per-layer readout calls.
        is_real_node : array or None, shape (minibatch, N)
        warp : callable or None
            ``warp(h, h_new, layer_index) -> h_new`` after each update (the GWM).

        Returns
        -------
        Variable, shape (minibatch, out_dim) (``n_update_layers * out_dim`` with concat_hidden)
        """
        if self.scale_adj:
            adj = rescale_adj(adj)
        g_list = []
        for step in range(self.n_update_layers):
            index = 0 if self.weight_tying else step
            layer = self.update_layers[index]
            if is_real_node is not None and isinstance(layer, RelGATUpdate):
                # an atom without neighbours attends to all non-neighbours, padding excluded
                h_new = layer(h=h, adj=adj, is_real_node=is_real_node, **additional_kwargs)
            else:
                h_new = layer(h=h, adj=adj, **additional_kwargs)
            h = h_new if warp is None else warp(h, h_new, index)
            if self.use_batchnorm:
                h = self.bnorms[index](h, is_real_node=is_real_node)
            if self.dropout_ratio > 0.0:
                h = F.dropout(h, ratio=self.dropout_ratio)
            if self.activation is not None and step < self.n_activation:
                h = self.activation(h)
            if self.concat_hidden or self.sum_hidden:
                g_list.append(self.readout_layers[step](h=h, h0=h0, is_real_node=is_real_node,
                                                        **additional_kwargs))
        if self.concat_hidden:
            return F.concat(g_list, axis=1)
        if self.sum_hidden:
            return F.sum(F.stack(g_list), axis=0)
        return self.readout_layers[0](h=h, h0=h0, is_real_node=is_real_node)

    def reset_state(self) -> None:
        """Forget the recurrent states of the update layers."""
        for update_layer in self.update_layers:
            if hasattr(update_layer, "reset_state"):
                update_layer.reset_state()

    def preprocess_addtional_kwargs(self, *args, **kwargs) -> dict:
        """Extra keyword arguments for the update layers (none here; Chainer Chemistry's spelling)."""
        return {}


class GWMGraphConvModel(GraphConvModelBase):
    """A graph convolution model from update and readout links, with an optional GWM super node.

    Parameters
    ----------
    hidden_channels : int or list of int
        Node sizes ``[embedding, layer 1, ...]``; an int needs ``n_update_layers``.
    out_dim : int
    update_layer, readout_layer : Link classes
        Built as ``update_layer(in_channels=, out_channels=, n_edge_types=, **update_kwargs)`` and
        ``readout_layer(out_dim=, in_channels=None, **readout_kwargs)``.
    n_update_layers : int or None
    out_channels : list of int or None
        Output sizes of the layers when they differ from the next input size.
    super_node_dim : int or None
        Super-node size (hidden_channels[0] when None).
    n_atom_types, n_edge_types : int
    dropout_ratio : float
        Dropout after each layer (training only; skipped when <= 0).
    with_gwm : bool
    concat_hidden, sum_hidden : bool
        Read out after every layer and concatenate or sum.
    weight_tying : bool
    scale_adj : bool
        Normalize the adjacency with ``rescale_adj``.
    activation : callable or None
        After the first ``n_activation`` layers (all when None).
    use_batchnorm : bool
    n_activation : int or None
    update_kwargs, readout_kwargs, gwm_kwargs : dict or None
    """

    def __init__(self, hidden_channels: int | Sequence[int], out_dim: int,
                 update_layer: type, readout_layer: type, n_update_layers: int | None = None,
                 out_channels: Sequence[int] | None = None, super_node_dim: int | None = None,
                 n_atom_types: int = MAX_ATOMIC_NUM, n_edge_types: int = 4,
                 dropout_ratio: float = -1.0, with_gwm: bool = True,
                 concat_hidden: bool = False, sum_hidden: bool = False,
                 weight_tying: bool = False, scale_adj: bool = False,
                 activation: Callable | None = None, use_batchnorm: bool = False,
                 n_activation: int | None = None, update_kwargs: dict | None = None,
                 readout_kwargs: dict | None = None, gwm_kwargs: dict | None = None):
        super().__init__(
            hidden_channels, out_dim, update_layer, readout_layer,
            n_update_layers=n_update_layers, out_channels=out_channels,
            n_atom_types=n_atom_types, n_edge_types=n_edge_types, dropout_ratio=dropout_ratio,
            concat_hidden=concat_hidden, sum_hidden=sum_hidden, weight_tying=weight_tying,
            scale_adj=scale_adj, activation=activation, use_batchnorm=use_batchnorm,
            n_activation=n_activation, update_kwargs=update_kwargs,
            readout_kwargs=readout_kwargs, uniform_channels=with_gwm)
        if with_gwm:
            if super_node_dim is None:
                super_node_dim = self.hidden_channels[0]
            with self.init_scope():
                self.gwm = GWM(hidden_dim=self.hidden_channels[0],
                               hidden_dim_super=super_node_dim,
                               n_layers=len(self.update_layers), **(gwm_kwargs or {}))
                self.embed_super = Linear(None, out_size=super_node_dim)
                self.linear_for_concat_super = Linear(in_size=None, out_size=out_dim)
        self.with_gwm = with_gwm

    def forward(self, atom_array, adj, super_node=None, is_real_node=None):
        """Compute the graph vectors.

        Parameters
        ----------
        atom_array : array, shape (minibatch, N) int32, or (minibatch, N, ch) float
        adj : array or Variable
            (minibatch, n_edge_types, N, N) for edge-typed update layers, else (minibatch, N, N).
        super_node : array or Variable, shape (minibatch, super_node_features)
            The ``*_gwm`` preprocessors' super-node features (needed with with_gwm).
        is_real_node : array or None, shape (minibatch, N)

        Returns
        -------
        Variable, shape (minibatch, out_dim) (``n_update_layers * out_dim`` with concat_hidden)
        """
        h, is_real_node = self.embed_atoms(atom_array, adj, is_real_node)
        h0 = h
        additional_kwargs = self.preprocess_addtional_kwargs(
            atom_array, adj, super_node=super_node, is_real_node=is_real_node)
        if not self.with_gwm:
            return self.convolve(h, h0, adj, additional_kwargs, is_real_node)
        name = type(self).__name__
        if super_node is None or super_node.ndim != 2 or len(super_node) != len(atom_array):
            given = None if super_node is None else tuple(super_node.shape)
            raise ValueError(f"{name}: super_node must have shape (minibatch={len(atom_array)}, "
                             f"features) as the *_gwm preprocessors give, got {given}")
        h_s = self.embed_super(super_node)

        def warp(h, h_new, index):
            nonlocal h_s
            h_new, h_s = self.gwm(h, h_new, h_s, index, is_real_node)
            return h_new

        g = self.convolve(h, h0, adj, additional_kwargs, is_real_node, warp=warp)
        if self.concat_hidden:
            return g
        return F.relu(self.linear_for_concat_super(F.concat((g, h_s), axis=1)))

    def reset_state(self) -> None:
        """Forget the recurrent states of the update layers and of the GWM."""
        super().reset_state()
        if self.with_gwm:
            self.gwm.reset_state()
