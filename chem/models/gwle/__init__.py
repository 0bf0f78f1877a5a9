"""Gated WL Embedding models (Chainer Chemistry's chainer_chemistry.models.gwle)."""
from kusari.chem.models.gwle import gwle_graph_conv_model, gwle_net  # NOQA
from kusari.chem.models.gwle.gwle_graph_conv_model import GWLEGraphConvModel  # NOQA
from kusari.chem.models.gwle.gwle_net import (  # NOQA
    GGNN_GWLE,
    GIN_GWLE,
    NFP_GWLE,
    RSGCN_GWLE,
    RelGAT_GWLE,
    RelGCN_GWLE,
)
