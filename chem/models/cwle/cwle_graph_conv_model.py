"""CWLEGraphConvModel: a unified graph convolution model whose atoms also carry WLE labels, concatenated.

``WLEGraphConvModelBase`` is the part it shares with GWLEGraphConvModel: the WLE label embedding
merged into the atom embedding before the update layers.
"""
from collections.abc import Callable, Sequence

from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.chem.models._inputs import real_atoms
from kusari.chem.models.gwm.gwm_graph_conv_model import GraphConvModelBase, to_array  # NOQA
from kusari.links import EmbedID

MAX_WLE_NUM = 800


class WLEGraphConvModelBase(GraphConvModelBase):
    """GraphConvModelBase plus ``embed_wle``; subclasses merge the label embedding in ``merge_wle``.

    Parameters are those of CWLEGraphConvModel.
    """

    def __init__(self, hidden_channels: int | Sequence[int], out_dim: int,
                 update_layer: type, readout_layer: type, n_update_layers: int | None = None,
                 out_channels: Sequence[int] | None = None, wle_dim: int | None = None,
                 n_atom_types: int = MAX_ATOMIC_NUM, n_edge_types: int = 4,
                 dropout_ratio: float = -1.0, with_wle: bool = True,
                 concat_hidden: bool = False, sum_hidden: bool = False,
                 weight_tying: bool = False, scale_adj: bool = False,
                 activation: Callable | None = None, use_batchnorm: bool = False,
                 n_activation: int | None = None, update_kwargs: dict | None = None,
                 readout_kwargs: dict | None = None, wle_kwargs: dict | None = None,
                 n_wle_types: int = MAX_WLE_NUM):
        super().__init__(
            hidden_channels, out_dim, update_layer, readout_layer,
            n_update_layers=n_update_layers, out_channels=out_channels,
            n_atom_types=n_atom_types, n_edge_types=n_edge_types, dropout_ratio=dropout_ratio,
            concat_hidden=concat_hidden, sum_hidden=sum_hidden, weight_tying=weight_tying,
            scale_adj=scale_adj, activation=activation, use_batchnorm=use_batchnorm,
            n_activation=n_activation, update_kwargs=update_kwargs,
            readout_kwargs=readout_kwargs, uniform_channels=with_wle)
        if with_wle:
            if wle_dim is None:
                wle_dim = self.hidden_channels[0]
            with self.init_scope():
                self.embed_wle = EmbedID(out_size=wle_dim, in_size=n_wle_types)
                self.build_merge(wle_dim, self.hidden_channels[0])
        self.with_wle = with_wle
        self.n_wle_types = n_wle_types

    def build_merge(self, wle_dim: int, hidden_dim: int) -> None:
        """Create the links of ``merge_wle`` (called inside init_scope)."""
        raise NotImplementedError

    def merge_wle(self, h, h_wle):
        """Merge (minibatch, N, hidden) atom and (minibatch, N, wle_dim) label embeddings."""
        raise NotImplementedError

    def forward(self, atom_array, adj, wle_array=None, is_real_node=None):
        """Compute the graph vectors.

        Parameters
        ----------
        atom_array : array, shape (minibatch, N) int32, or (minibatch, N, ch) float
        adj : array or Variable
            (minibatch, n_edge_types, N, N) for edge-typed update layers, else (minibatch, N, N).
        wle_array : array, shape (minibatch, N) int
            WLE labels (``apply_cwle_for_datasets``); needed with with_wle.
        is_real_node : array or None, shape (minibatch, N)

        Returns
        -------
        Variable, shape (minibatch, out_dim) (``n_update_layers * out_dim`` with concat_hidden)
        """
        h, is_real_node = self.embed_atoms(atom_array, adj, is_real_node)
        h0 = h
        if self.with_wle:
            expected = tuple(atom_array.shape[:2])
            given = None if wle_array is None else tuple(wle_array.shape)
            if given != expected:
                raise ValueError(f"{type(self).__name__}: wle_array must have shape {expected} "
                                 f"(minibatch, N) like atom_array, got {given}")
            wle_array, _ = real_atoms(type(self).__name__, wle_array)   # concat_mols pads it with -1
            h = self.merge_wle(h, self.embed_wle(wle_array))
        additional_kwargs = self.preprocess_addtional_kwargs(
            atom_array, adj, wle_array=wle_array, is_real_node=is_real_node)
        return self.convolve(h, h0, adj, additional_kwargs, is_real_node)


class CWLEGraphConvModel(WLEGraphConvModelBase):
    """Unified graph convolution model with Combined WL Embedding: ``W [h, embed_wle(label)]``.

    Parameters
    ----------
    hidden_channels, out_dim, update_layer, readout_layer, n_update_layers, out_channels,
    n_atom_types, n_edge_types, dropout_ratio, concat_hidden, sum_hidden, weight_tying,
    scale_adj, activation, use_batchnorm, n_activation, update_kwargs, readout_kwargs
        As in GWMGraphConvModel.
    wle_dim : int or None
        Label embedding size (hidden_channels[0] when None).
    with_wle : bool
    wle_kwargs : dict or None
        Unused (kept for the signature).
    n_wle_types : int
        Number of WLE labels.
    """

    def build_merge(self, wle_dim: int, hidden_dim: int) -> None:
        self.linear_for_concat_wle = GraphLinear(in_size=wle_dim + hidden_dim,
                                                 out_size=hidden_dim)

    def merge_wle(self, h, h_wle):
        return self.linear_for_concat_wle(F.concat((h, h_wle), axis=2))
