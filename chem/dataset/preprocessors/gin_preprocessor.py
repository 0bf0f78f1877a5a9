"""GINPreprocessor: atomic numbers and the adjacency matrix with self loops (Graph Isomorphism Network)."""
import numpy

from kusari.chem.dataset.graph_dataset.base_graph_data import SparseGraphData
from kusari.chem.dataset.preprocessors._sparse import _SparseDatasetMixin
from kusari.chem.dataset.preprocessors.nfp_preprocessor import NFPPreprocessor


class GINPreprocessor(NFPPreprocessor):
    """Features for GIN: the same as :class:`NFPPreprocessor`'s (GIN takes no ``kekulize``).

    Parameters
    ----------
    max_atoms : int
        Molecules with more atoms are skipped (MolFeatureExtractionError); negative: no limit.
    out_size : int
        Size the arrays are zero-padded to; negative: no padding.
    add_Hs : bool
        Whether to make hydrogens explicit atoms.
    """

    def __init__(self, max_atoms: int = -1, out_size: int = -1, add_Hs: bool = False):
        super().__init__(max_atoms=max_atoms, out_size=out_size, add_Hs=add_Hs)


class GINSparsePreprocessor(_SparseDatasetMixin, GINPreprocessor):
    """GIN's features (atomic numbers, adjacency with self loops), as edge-list graphs.

    Parameters are :class:`GINPreprocessor`'s.
    """

    def construct_sparse_data(self, x: numpy.ndarray, adj: numpy.ndarray, y) -> SparseGraphData:
        """One molecule's graph: an edge ``i -> j`` per nonzero ``adj[i, j]`` (self loops included).

        Parameters
        ----------
        x : numpy.ndarray
            ``(N,)`` atomic numbers.
        adj : numpy.ndarray
            ``(N, N)`` adjacency.
        y : numpy.ndarray or None
            The molecule's labels.

        Returns
        -------
        SparseGraphData
            ``edge_index`` ``(2, E)`` int64, ordered by source, then destination; no ``edge_attr``.
        """
        if adj.ndim != 2:
            raise ValueError(f"{type(self).__name__}.construct_sparse_data: adj must be (N, N), "
                             f"got shape {adj.shape}")
        return SparseGraphData(x=x, edge_index=numpy.stack(numpy.nonzero(adj)).astype(numpy.int64), y=y)
