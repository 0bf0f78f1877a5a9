"""GGNNPreprocessor: atomic numbers and one adjacency matrix per bond type (Gated Graph Neural Network)."""
import numpy

from kusari.chem.dataset.graph_dataset.base_graph_data import SparseGraphData
from kusari.chem.dataset.preprocessors._sparse import _SparseDatasetMixin
from kusari.chem.dataset.preprocessors.common import (
    check_max_atoms_and_out_size, construct_atomic_number_array, construct_discrete_edge_matrix,
    type_check_num_atoms)
from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor


class GGNNPreprocessor(MolPreprocessor):
    """Features for GGNN: atomic numbers and bond-type adjacency (single, double, triple, aromatic).

    Parameters
    ----------
    max_atoms : int
        Molecules with more atoms are skipped (MolFeatureExtractionError); negative: no limit.
    out_size : int
        Size the arrays are zero-padded to; negative: no padding.
    add_Hs : bool
        Whether to make hydrogens explicit atoms.
    kekulize : bool
        Whether to kekulize the molecule (then the aromatic channel is empty).
    """

    # GNN-FiLM subclasses this with an extra self-loop channel
    _self_connection_channel = False

    def __init__(self, max_atoms: int = -1, out_size: int = -1, add_Hs: bool = False,
                 kekulize: bool = False):
        super().__init__(add_Hs=add_Hs, kekulize=kekulize)
        check_max_atoms_and_out_size(type(self).__name__, max_atoms, out_size)
        self.max_atoms = max_atoms
        self.out_size = out_size

    def get_input_features(self, mol) -> tuple:
        """Atomic numbers and bond-type adjacency of ``mol`` (``N`` atoms, ``S = out_size`` or ``N``).

        Returns
        -------
        tuple of numpy.ndarray
            ``(S,)`` int32 atomic numbers, ``(4, S, S)`` float32 adjacency per bond type.
        """
        type_check_num_atoms(mol, self.max_atoms)
        return (construct_atomic_number_array(mol, out_size=self.out_size),
                construct_discrete_edge_matrix(
                    mol, out_size=self.out_size,
                    add_self_connection_channel=self._self_connection_channel))


class GGNNSparsePreprocessor(_SparseDatasetMixin, GGNNPreprocessor):
    """GGNN's features (atomic numbers, adjacency per bond type), as edge-list graphs.

    Parameters are :class:`GGNNPreprocessor`'s.
    """

    def construct_sparse_data(self, x: numpy.ndarray, adj: numpy.ndarray, y) -> SparseGraphData:
        """One molecule's graph: an edge per nonzero ``adj[r, i, j]``, its bond type ``r`` as attribute.

        As in Chainer Chemistry 0.7.1, both rows of ``edge_index`` hold the source atom ``i``
        (so every edge is a self loop); kept so that datasets match it exactly.

        Parameters
        ----------
        x : numpy.ndarray
            ``(N,)`` atomic numbers.
        adj : numpy.ndarray
            ``(R, N, N)`` adjacency per bond type.
        y : numpy.ndarray or None
            The molecule's labels.

        Returns
        -------
        SparseGraphData
            ``edge_index`` ``(2, E)`` int64 and ``edge_attr`` ``(E,)`` int64, ordered by bond
            type, then source, then destination.
        """
        if adj.ndim != 3:
            raise ValueError(f"{type(self).__name__}.construct_sparse_data: adj must be (R, N, N), "
                             f"got shape {adj.shape}")
        relation, source, _ = numpy.nonzero(adj)
        return SparseGraphData(x=x, edge_index=numpy.stack([source, source]).astype(numpy.int64),
                               edge_attr=relation.astype(numpy.int64), y=y)
