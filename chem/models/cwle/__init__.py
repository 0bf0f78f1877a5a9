"""Combined WL Embedding models (Chainer Chemistry's chainer_chemistry.models.cwle)."""
from kusari.chem.models.cwle import cwle_graph_conv_model, cwle_net  # NOQA
from kusari.chem.models.cwle.cwle_graph_conv_model import CWLEGraphConvModel  # NOQA
from kusari.chem.models.cwle.cwle_net import (  # NOQA
    GGNN_CWLE,
    GIN_CWLE,
    NFP_CWLE,
    RSGCN_CWLE,
    RelGAT_CWLE,
    RelGCN_CWLE,
)
