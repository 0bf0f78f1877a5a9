"""RelGCNPreprocessor: GGNN's features (atomic numbers, adjacency per bond type) for Relational GCN."""
from kusari.chem.dataset.preprocessors.ggnn_preprocessor import GGNNPreprocessor


class RelGCNPreprocessor(GGNNPreprocessor):
    """Features for RelGCN: the same as :class:`GGNNPreprocessor`'s."""
