"""Preprocessors: turn an RDKit molecule into the input features of a graph network."""
from kusari.chem.dataset.preprocessors.atomic_number_preprocessor import AtomicNumberPreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.base_preprocessor import BasePreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.chemprop_preprocessor import (ChempropPreprocessor,  # NOQA
                                                                     atom_features, bond_features)
from kusari.chem.dataset.preprocessors.common import (MolFeatureExtractionError,  # NOQA
                                                      construct_adj_matrix,
                                                      construct_atomic_number_array,
                                                      construct_discrete_edge_matrix,
                                                      construct_supernode_feature,
                                                      type_check_num_atoms)
from kusari.chem.dataset.preprocessors.ecfp_preprocessor import ECFPPreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.ggnn_preprocessor import GGNNPreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.gin_preprocessor import GINPreprocessor, GINSparsePreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.gnnfilm_preprocessor import GNNFiLMPreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.gwm_preprocessor import (GGNNGWMPreprocessor,  # NOQA
                                                                GINGWMPreprocessor,
                                                                NFPGWMPreprocessor,
                                                                RSGCNGWMPreprocessor)
from kusari.chem.dataset.preprocessors.megnet_preprocessor import MEGNetPreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.nfp_preprocessor import NFPPreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.relgat_preprocessor import RelGATPreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.relgcn_preprocessor import RelGCNPreprocessor, RelGCNSparsePreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.rsgcn_preprocessor import RSGCNPreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.schnet_preprocessor import SchNetPreprocessor  # NOQA
from kusari.chem.dataset.preprocessors.weavenet_preprocessor import WeaveNetPreprocessor  # NOQA

# Chainer Chemistry's names for the preprocessors (its 'cgcnn', for crystals, is not implemented yet)
preprocess_method_dict = {
    'ecfp': ECFPPreprocessor,
    'nfp': NFPPreprocessor,
    'nfp_gwm': NFPGWMPreprocessor,
    'ggnn': GGNNPreprocessor,
    'ggnn_gwm': GGNNGWMPreprocessor,
    'gin': GINPreprocessor,
    'gin_gwm': GINGWMPreprocessor,
    'schnet': SchNetPreprocessor,
    'weavenet': WeaveNetPreprocessor,
    'relgcn': RelGCNPreprocessor,
    'rsgcn': RSGCNPreprocessor,
    'rsgcn_gwm': RSGCNGWMPreprocessor,
    'relgat': RelGATPreprocessor,
    'relgcn_sparse': RelGCNSparsePreprocessor,
    'gin_sparse': GINSparsePreprocessor,
    'gnnfilm': GNNFiLMPreprocessor,
    'megnet': MEGNetPreprocessor,
}
