"""GGNN, RelGCN, RelGAT, GIN, NFP and RSGCN with Combined WL Embedding (Chainer Chemistry's cwle_net).

The ``*WLENet`` mixins hold each family's constructor; gwle_net pairs them with the gated base.
"""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.readout.general_readout import GeneralReadout
from kusari.chem.links.readout.ggnn_readout import GGNNReadout
from kusari.chem.links.readout.nfp_readout import NFPReadout
from kusari.chem.links.update.ggnn_update import GGNNUpdate
from kusari.chem.links.update.gin_update import GINUpdate
from kusari.chem.links.update.nfp_update import NFPUpdate
from kusari.chem.links.update.relgat_update import RelGATUpdate
from kusari.chem.links.update.relgcn_update import RelGCNUpdate
from kusari.chem.links.update.rsgcn_update import RSGCNUpdate
from kusari.chem.models.cwle.cwle_graph_conv_model import (
    MAX_WLE_NUM,
    CWLEGraphConvModel,
)
from kusari.chem.models.gwm.gwm_net import degree_conditions


class GatedReadoutWLENet:
    """Constructor of the WLE models with ``_update_link`` updates and a gated (GGNN) readout.

    Parameters
    ----------
    out_dim, hidden_channels, n_update_layers, n_atom_types, concat_hidden, weight_tying,
    n_edge_types : as in GGNN
    activation : callable
        Readout activations.
    with_wle : bool
    n_wle_types : int
    """

    _update_link: type

    def __init__(self, out_dim: int, hidden_channels: int = 16, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, concat_hidden: bool = False,
                 weight_tying: bool = True, activation: Callable = F.identity,
                 n_edge_types: int = 4, with_wle: bool = True, n_wle_types: int = MAX_WLE_NUM):
        super().__init__(
            update_layer=self._update_link, readout_layer=GGNNReadout, out_dim=out_dim,
            hidden_channels=hidden_channels, n_update_layers=n_update_layers,
            n_atom_types=n_atom_types, concat_hidden=concat_hidden, weight_tying=weight_tying,
            n_edge_types=n_edge_types, with_wle=with_wle, n_wle_types=n_wle_types,
            readout_kwargs={"activation": activation, "activation_agg": activation})


class GINWLENet:
    """Constructor of GIN_CWLE / GIN_GWLE (parameters as GIN's, plus with_wle, n_wle_types)."""

    def __init__(self, out_dim: int, hidden_channels: int = 16, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, dropout_ratio: float = 0.5,
                 concat_hidden: bool = False, weight_tying: bool = True,
                 activation: Callable = F.identity, n_edge_types: int = 4,
                 with_wle: bool = True, n_wle_types: int = MAX_WLE_NUM):
        super().__init__(
            update_layer=GINUpdate, readout_layer=GGNNReadout, out_dim=out_dim,
            hidden_channels=hidden_channels, n_update_layers=n_update_layers,
            n_atom_types=n_atom_types, concat_hidden=concat_hidden, weight_tying=weight_tying,
            n_edge_types=n_edge_types, with_wle=with_wle, n_wle_types=n_wle_types,
            update_kwargs={"dropout_ratio": dropout_ratio},
            readout_kwargs={"activation": activation, "activation_agg": activation})


class NFPWLENet:
    """Constructor of NFP_CWLE / NFP_GWLE (readouts summed over layers, degree masks)."""

    def __init__(self, out_dim: int, hidden_channels: int = 16, n_update_layers: int = 4,
                 max_degree: int = 6, n_atom_types: int = MAX_ATOMIC_NUM,
                 concat_hidden: bool = False, with_wle: bool = True,
                 n_wle_types: int = MAX_WLE_NUM):
        super().__init__(
            update_layer=NFPUpdate, readout_layer=NFPReadout, out_dim=out_dim,
            hidden_channels=hidden_channels, n_update_layers=n_update_layers,
            n_atom_types=n_atom_types, concat_hidden=concat_hidden, sum_hidden=True,
            with_wle=with_wle, n_wle_types=n_wle_types,
            update_kwargs={"max_degree": max_degree})
        self.max_degree = max_degree
        self.n_degree_type = max_degree + 1
        self.ch0 = hidden_channels

    def preprocess_addtional_kwargs(self, *args, **kwargs) -> dict:
        """``{'deg_conds': ...}`` for NFPUpdate, from the adjacency (the second argument)."""
        return {"deg_conds": degree_conditions(args[1], self.n_degree_type, self.ch0)}


class RSGCNWLENet:
    """Constructor of RSGCN_CWLE / RSGCN_GWLE (``readout``: a readout Link class or None)."""

    def __init__(self, out_dim: int, hidden_channels: int = 32, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, use_batch_norm: bool = False,
                 readout: type | None = None, dropout_ratio: float = 0.5,
                 with_wle: bool = True, n_wle_types: int = MAX_WLE_NUM):
        super().__init__(
            update_layer=RSGCNUpdate, readout_layer=readout or GeneralReadout, out_dim=out_dim,
            hidden_channels=hidden_channels, n_update_layers=n_update_layers,
            n_atom_types=n_atom_types, use_batchnorm=use_batch_norm, activation=F.relu,
            n_activation=n_update_layers - 1, dropout_ratio=dropout_ratio,
            with_wle=with_wle, n_wle_types=n_wle_types)


class GGNN_CWLE(GatedReadoutWLENet, CWLEGraphConvModel):
    """GGNN with Combined WL Embedding."""
    _update_link = GGNNUpdate


class RelGCN_CWLE(GatedReadoutWLENet, CWLEGraphConvModel):
    """RelGCN updates and a GGNN readout with Combined WL Embedding."""
    _update_link = RelGCNUpdate


class RelGAT_CWLE(GatedReadoutWLENet, CWLEGraphConvModel):
    """RelGAT updates and a GGNN readout with Combined WL Embedding."""
    _update_link = RelGATUpdate


class GIN_CWLE(GINWLENet, CWLEGraphConvModel):
    """GIN with Combined WL Embedding."""


class NFP_CWLE(NFPWLENet, CWLEGraphConvModel):
    """NFP with Combined WL Embedding."""


class RSGCN_CWLE(RSGCNWLENet, CWLEGraphConvModel):
    """RSGCN with Combined WL Embedding."""
