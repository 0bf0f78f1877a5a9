"""RelGCNPreprocessor: GGNN's features (atomic numbers, adjacency per bond type) for Relational GCN."""
from kusari.chem.dataset.preprocessors.ggnn_preprocessor import GGNNPreprocessor, GGNNSparsePreprocessor


class RelGCNPreprocessor(GGNNPreprocessor):
    """Features for RelGCN: the same as :class:`GGNNPreprocessor`'s."""


class RelGCNSparsePreprocessor(GGNNSparsePreprocessor):
    """RelGCN's features as edge-list graphs: the same as :class:`GGNNSparsePreprocessor`."""
