"""GNNFiLM: Graph Neural Network with Feature-wise Linear Modulation (Brockschmidt, 2019)."""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.update.gnn_film_update import GNNFiLMUpdate
from kusari.chem.models.ggnn import GGNN


class GNNFiLM(GGNN):
    """GNN-FiLM: FiLM-modulated message passing, a gated readout on [h, h0].

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
    activation : callable
        Readout activations (identity by default).
    n_edge_types : int
        Bond types plus the self-connection (5 for GNNFiLMPreprocessor).
    """

    update_layer_class = GNNFiLMUpdate   # otherwise GGNN's links, names and forward

    def __init__(self, out_dim: int, hidden_channels: int = 16, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, concat_hidden: bool = False,
                 weight_tying: bool = True, activation: Callable = F.identity,
                 n_edge_types: int = 5):
        super().__init__(out_dim, hidden_channels, n_update_layers, n_atom_types, concat_hidden,
                         weight_tying, activation, n_edge_types)

    def reset_state(self) -> None:
        """Nothing to forget: GNN-FiLM's update layers keep no state."""
