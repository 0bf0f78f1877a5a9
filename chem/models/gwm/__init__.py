"""Graph Warp Module models (Chainer Chemistry's chainer_chemistry.models.gwm)."""
from kusari.chem.models.gwm import gwm, gwm_graph_conv_model, gwm_net  # NOQA
from kusari.chem.models.gwm.gwm import GWM  # NOQA
from kusari.chem.models.gwm.gwm_graph_conv_model import GWMGraphConvModel  # NOQA
from kusari.chem.models.gwm.gwm_net import GGNN_GWM, GIN_GWM, NFP_GWM, RSGCN_GWM  # NOQA
