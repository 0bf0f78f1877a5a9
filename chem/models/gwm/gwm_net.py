"""GGNN, GIN, NFP and RSGCN with a Graph Warp Module (Chainer Chemistry's gwm_net)."""
from collections.abc import Callable

from kusari import backend
from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.readout.general_readout import GeneralReadout
from kusari.chem.links.readout.ggnn_readout import GGNNReadout
from kusari.chem.links.readout.nfp_readout import NFPReadout
from kusari.chem.links.update.ggnn_update import GGNNUpdate
from kusari.chem.links.update.gin_update import GINUpdate
from kusari.chem.links.update.nfp_update import NFPUpdate
from kusari.chem.links.update.rsgcn_update import RSGCNUpdate
from kusari.chem.models.gwm.gwm_graph_conv_model import GWMGraphConvModel, to_array


def degree_conditions(adj, n_degree_types: int, ch: int) -> list:
    """NFP's per-degree atom masks.

    Parameters
    ----------
    adj : array or Variable, shape (minibatch, N, N) or (minibatch, n_edge_types, N, N)
    n_degree_types : int
        Degrees 1 .. n_degree_types get a mask.
    ch : int

    Returns
    -------
    list of bool arrays, each of shape (minibatch, N, ch)
    """
    adj = to_array(adj)
    if adj.ndim not in (3, 4):
        raise ValueError(f"degree_conditions: adj must be (minibatch, N, N) or "
                         f"(minibatch, n_edge_types, N, N), got shape {adj.shape}")
    xp = backend.get_array_module(adj)
    degree = adj.sum(axis=(1, 2) if adj.ndim == 4 else 1)
    mb, n = degree.shape
    return [xp.broadcast_to((degree == d)[:, :, None], (mb, n, ch))
            for d in range(1, n_degree_types + 1)]


class GGNN_GWM(GWMGraphConvModel):
    """GGNN (GRU updates, gated readout) with a GWM; see GGNN and GWMGraphConvModel."""

    def __init__(self, out_dim: int, hidden_channels: int = 16, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, concat_hidden: bool = False,
                 weight_tying: bool = True, activation: Callable = F.identity,
                 n_edge_types: int = 4, with_gwm: bool = True):
        super().__init__(
            update_layer=GGNNUpdate, readout_layer=GGNNReadout, out_dim=out_dim,
            hidden_channels=hidden_channels, n_update_layers=n_update_layers,
            n_atom_types=n_atom_types, concat_hidden=concat_hidden, weight_tying=weight_tying,
            n_edge_types=n_edge_types, with_gwm=with_gwm,
            readout_kwargs={"activation": activation, "activation_agg": activation})


class GIN_GWM(GWMGraphConvModel):
    """GIN (MLP updates, gated readout) with a GWM; see GIN and GWMGraphConvModel."""

    def __init__(self, out_dim: int, hidden_channels: int = 16, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, dropout_ratio: float = 0.5,
                 concat_hidden: bool = False, weight_tying: bool = True,
                 activation: Callable = F.identity, n_edge_types: int = 4,
                 with_gwm: bool = True):
        super().__init__(
            update_layer=GINUpdate, readout_layer=GGNNReadout, out_dim=out_dim,
            hidden_channels=hidden_channels, n_update_layers=n_update_layers,
            n_atom_types=n_atom_types, concat_hidden=concat_hidden, weight_tying=weight_tying,
            n_edge_types=n_edge_types, with_gwm=with_gwm,
            update_kwargs={"dropout_ratio": dropout_ratio},
            readout_kwargs={"activation": activation, "activation_agg": activation})


class NFP_GWM(GWMGraphConvModel):
    """NFP (degree-wise updates, readouts summed over layers) with a GWM; see NFP."""

    def __init__(self, out_dim: int, hidden_channels: int = 16, n_update_layers: int = 4,
                 max_degree: int = 6, n_atom_types: int = MAX_ATOMIC_NUM,
                 concat_hidden: bool = False, with_gwm: bool = True):
        super().__init__(
            update_layer=NFPUpdate, readout_layer=NFPReadout, out_dim=out_dim,
            hidden_channels=hidden_channels, n_update_layers=n_update_layers,
            n_atom_types=n_atom_types, concat_hidden=concat_hidden, sum_hidden=True,
            with_gwm=with_gwm, update_kwargs={"max_degree": max_degree})
        self.max_degree = max_degree
        self.n_degree_type = max_degree + 1
        self.ch0 = hidden_channels

    def preprocess_addtional_kwargs(self, *args, **kwargs) -> dict:
        """``{'deg_conds': ...}`` for NFPUpdate, from the adjacency (the second argument)."""
        return {"deg_conds": degree_conditions(args[1], self.n_degree_type, self.ch0)}


class RSGCN_GWM(GWMGraphConvModel):
    """RSGCN (graph convolutions, ReLU between them) with a GWM; see RSGCN.

    ``readout`` is a readout Link class (GeneralReadout when None).
    """

    def __init__(self, out_dim: int, hidden_channels: int = 32, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, use_batch_norm: bool = False,
                 readout: type | None = None, dropout_ratio: float = 0.5,
                 with_gwm: bool = True):
        super().__init__(
            update_layer=RSGCNUpdate, readout_layer=readout or GeneralReadout, out_dim=out_dim,
            hidden_channels=hidden_channels, n_update_layers=n_update_layers,
            n_atom_types=n_atom_types, use_batchnorm=use_batch_norm, activation=F.relu,
            n_activation=n_update_layers - 1, dropout_ratio=dropout_ratio, with_gwm=with_gwm)
