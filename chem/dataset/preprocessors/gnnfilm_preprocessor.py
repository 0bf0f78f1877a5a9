"""GNNFiLMPreprocessor: atomic numbers and adjacency per bond type plus a self-loop channel (GNN-FiLM)."""
from kusari.chem.dataset.preprocessors.ggnn_preprocessor import GGNNPreprocessor


class GNNFiLMPreprocessor(GGNNPreprocessor):
    """Features for GNN-FiLM: GGNN's, with a fifth adjacency channel holding the self loops.

    ``get_input_features`` returns ``(S,)`` int32 atomic numbers and ``(5, S, S)`` float32
    adjacency (single, double, triple, aromatic, self); parameters as :class:`GGNNPreprocessor`.
    """

    _self_connection_channel = True
