"""The dataset step of the sparse preprocessors (GGNN / RelGCN / GIN features as edge-list graphs):
their features are the dense ones, and ``create_dataset`` turns each molecule's adjacency into a
:class:`SparseGraphData`."""
from kusari.chem.dataset.graph_dataset.base_graph_dataset import SparseGraphDataset


class _SparseDatasetMixin:
    """``create_dataset`` for preprocessors that define ``construct_sparse_data(x, adj, y)``."""

    def create_dataset(self, *args, **kwargs) -> SparseGraphDataset:
        """The dataset of the parsed columns, one :class:`SparseGraphData` per molecule.

        Parameters
        ----------
        *args : numpy.ndarray
            The columns ``(atoms, adjacency, labels)`` of length ``N`` (labels optional).

        Returns
        -------
        SparseGraphDataset
        """
        if len(args) not in (2, 3):
            raise ValueError(f"{type(self).__name__}.create_dataset: expected the columns (atoms, "
                             f"adjacency, labels) or (atoms, adjacency), got {len(args)} columns")
        labels = args[2] if len(args) == 3 else [None] * len(args[0])
        return SparseGraphDataset([self.construct_sparse_data(x, adj, y)
                                   for x, adj, y in zip(args[0], args[1], labels)])
