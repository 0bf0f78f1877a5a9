"""GGNN, RelGCN, RelGAT, GIN, NFP and RSGCN with Gated WL Embedding (Chainer Chemistry's gwle_net)."""
from kusari.chem.links.update.ggnn_update import GGNNUpdate
from kusari.chem.links.update.relgat_update import RelGATUpdate
from kusari.chem.links.update.relgcn_update import RelGCNUpdate
from kusari.chem.models.cwle.cwle_net import (
    GatedReadoutWLENet,
    GINWLENet,
    NFPWLENet,
    RSGCNWLENet,
)
from kusari.chem.models.gwle.gwle_graph_conv_model import GWLEGraphConvModel


class GGNN_GWLE(GatedReadoutWLENet, GWLEGraphConvModel):
    """GGNN with Gated WL Embedding."""
    _update_link = GGNNUpdate


class RelGCN_GWLE(GatedReadoutWLENet, GWLEGraphConvModel):
    """RelGCN updates and a GGNN readout with Gated WL Embedding."""
    _update_link = RelGCNUpdate


class RelGAT_GWLE(GatedReadoutWLENet, GWLEGraphConvModel):
    """RelGAT updates and a GGNN readout with Gated WL Embedding."""
    _update_link = RelGATUpdate


class GIN_GWLE(GINWLENet, GWLEGraphConvModel):
    """GIN with Gated WL Embedding."""


class NFP_GWLE(NFPWLENet, GWLEGraphConvModel):
    """NFP with Gated WL Embedding."""


class RSGCN_GWLE(RSGCNWLENet, GWLEGraphConvModel):
    """RSGCN with Gated WL Embedding."""
