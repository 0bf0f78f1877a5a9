"""GWLEGraphConvModel: a unified graph convolution model with WLE labels merged by a gate."""
from kusari import functions as F
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.chem.models.cwle.cwle_graph_conv_model import (  # NOQA
    MAX_WLE_NUM,
    WLEGraphConvModelBase,
    to_array,
)


class GWLEGraphConvModel(WLEGraphConvModelBase):
    """Unified graph convolution model with Gated WL Embedding: ``(1 - z) h + z e``.

    ``z = sigmoid(gate_W1 h + gate_W2 e)`` with e the label embedding (whose size must then be
    hidden_channels[0]). Parameters are those of CWLEGraphConvModel.
    """

    def build_merge(self, wle_dim: int, hidden_dim: int) -> None:
        self.gate_W1 = GraphLinear(in_size=hidden_dim, out_size=hidden_dim)
        self.gate_W2 = GraphLinear(in_size=wle_dim, out_size=hidden_dim)

    def merge_wle(self, h, h_wle):
        z = F.sigmoid(self.gate_W1(h) + self.gate_W2(h_wle))
        return (1.0 - z) * h + z * h_wle
