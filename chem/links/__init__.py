"""kusari.chem.links (Chainer Chemistry's chainer_chemistry.links)."""
from kusari.chem.links.connection.embed_atom_id import EmbedAtomID  # NOQA
from kusari.chem.links.connection.graph_linear import GraphLinear  # NOQA
from kusari.chem.links.connection.graph_mlp import GraphMLP  # NOQA
from kusari.chem.links.normalization.graph_batch_normalization import GraphBatchNormalization  # NOQA
from kusari.chem.links.readout.cgcnn_readout import CGCNNReadout  # NOQA
from kusari.chem.links.readout.general_readout import GeneralReadout  # NOQA
from kusari.chem.links.readout.ggnn_readout import GGNNReadout  # NOQA
from kusari.chem.links.readout.megnet_readout import MEGNetReadout  # NOQA
from kusari.chem.links.readout.mpnn_readout import MPNNReadout  # NOQA
from kusari.chem.links.readout.nfp_readout import NFPReadout  # NOQA
from kusari.chem.links.readout.schnet_readout import SchNetReadout  # NOQA
from kusari.chem.links.readout.set2set import Set2Set  # NOQA
from kusari.chem.links.scaler.max_abs_scaler import MaxAbsScaler  # NOQA
from kusari.chem.links.scaler.min_max_scaler import MinMaxScaler  # NOQA
from kusari.chem.links.scaler.standard_scaler import StandardScaler  # NOQA
from kusari.chem.links.update.cgcnn_update import CGCNNUpdate  # NOQA
from kusari.chem.links.update.ggnn_update import GGNNUpdate  # NOQA
from kusari.chem.links.update.gin_update import GINUpdate  # NOQA
from kusari.chem.links.update.gnn_film_update import GNNFiLMUpdate  # NOQA
from kusari.chem.links.update.megnet_update import MEGNetUpdate  # NOQA
from kusari.chem.links.update.mpnn_update import EdgeNet, MPNNUpdate  # NOQA
from kusari.chem.links.update.nfp_update import NFPUpdate  # NOQA
from kusari.chem.links.update.relgat_update import RelGATUpdate  # NOQA
from kusari.chem.links.update.relgcn_update import RelGCNUpdate  # NOQA
from kusari.chem.links.update.rsgcn_update import RSGCNUpdate  # NOQA
from kusari.chem.links.update.schnet_update import SchNetUpdate  # NOQA
