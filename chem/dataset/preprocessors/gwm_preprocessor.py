"""Graph-warp-module preprocessors: a base preprocessor's features plus the supernode feature."""
from kusari.chem.dataset.preprocessors.common import construct_supernode_feature
from kusari.chem.dataset.preprocessors.ggnn_preprocessor import GGNNPreprocessor
from kusari.chem.dataset.preprocessors.gin_preprocessor import GINPreprocessor
from kusari.chem.dataset.preprocessors.nfp_preprocessor import NFPPreprocessor
from kusari.chem.dataset.preprocessors.rsgcn_preprocessor import RSGCNPreprocessor


class _SupernodeMixin:
    """Appends :func:`construct_supernode_feature` to the base preprocessor's ``(atoms, adjacency)``.

    The supernode feature counts the atoms of the unpadded molecule, so ``out_size`` must stay
    negative (a padded molecule raises ValueError, and the parsers skip it).
    """

    def get_input_features(self, mol) -> tuple:
        """``(atom_array, adj_array, super_node_x)``: the base features and a ``(F,)`` float32 supernode feature."""
        atom_array, adj_array = super().get_input_features(mol)
        return atom_array, adj_array, construct_supernode_feature(mol, atom_array, adj_array)


class NFPGWMPreprocessor(_SupernodeMixin, NFPPreprocessor):
    """NFP's features and the supernode feature (``F = 238``)."""


class GGNNGWMPreprocessor(_SupernodeMixin, GGNNPreprocessor):
    """GGNN's features and the supernode feature (``F = 244``)."""


class GINGWMPreprocessor(_SupernodeMixin, GINPreprocessor):
    """GIN's features and the supernode feature (``F = 238``)."""


class RSGCNGWMPreprocessor(_SupernodeMixin, RSGCNPreprocessor):
    """RSGCN's features and the supernode feature (``F = 238``)."""
